#!/usr/bin/python3
# The LAVA job definition and its test definition in ci/lava pass the schema
# validation of Debian's lava-common (strict: unknown keys are errors), and
# the validation does reject a broken copy (so this test can fail).
# Debian's own python3: lava_common lives in its dist-packages.
import copy
import sys

import yaml
import voluptuous
from lava_common.schemas import validate
from lava_common.schemas.test import testdef

src = sys.argv[1]
job = yaml.safe_load(open(f"{src}/ci/lava/peer-harness-job.yaml"))
tdef = yaml.safe_load(open(f"{src}/ci/lava/peer-harness-testdef.yaml"))

validate(job, strict=True, extra_context_variables=[])
testdef.validate(tdef)
# The job's test action must name this test definition file.
d = job["actions"][2]["test"]["definitions"][0]
assert d["path"] == "ci/lava/peer-harness-testdef.yaml", d
assert set(d["parameters"]) <= set(tdef["params"]), d["parameters"]

bad = copy.deepcopy(job)
del bad["visibility"]
try:
    validate(bad, strict=True, extra_context_variables=[])
    sys.exit("FAIL: a job without visibility passed validation")
except voluptuous.Invalid as e:
    assert "visibility" in str(e), e
bad = copy.deepcopy(job)
bad["timeouts"]["action"] = {"hours": 4}
try:
    validate(bad, strict=True, extra_context_variables=[])
    sys.exit("FAIL: an action timeout above the job timeout passed validation")
except voluptuous.Invalid:
    pass
bad = copy.deepcopy(tdef)
del bad["metadata"]["format"]
try:
    testdef.validate(bad)
    sys.exit("FAIL: a test definition without metadata.format passed validation")
except voluptuous.Invalid:
    pass
print("OK: job and test definition valid; broken copies rejected")
