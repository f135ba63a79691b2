#!/usr/bin/python3
"""Every case file given validates against cases/case-file.schema.json.

The schema's step parts are generated from the loader's tables
(schema_test.cpp); this checks the other direction with a real JSON Schema
validator: what the loader accepts in the shipped files, an editor must not
flag. Usage: schema_accepts_cases.py SCHEMA FILE_OR_DIR...
"""
import json
import pathlib
import sys

import jsonschema
import yaml


def case_files(paths):
    for p in map(pathlib.Path, paths):
        yield from sorted(p.glob("*.yaml")) if p.is_dir() else [p]


def main():
    schema = json.loads(pathlib.Path(sys.argv[1]).read_text())
    validator = jsonschema.Draft7Validator(schema)
    failed = checked = 0
    for f in case_files(sys.argv[2:]):
        checked += 1
        for e in validator.iter_errors(yaml.safe_load(f.read_text())):
            failed += 1
            where = "/".join(str(p) for p in e.absolute_path)
            print(f"{f}: {where}: {e.message[:300]}")
    print(f"{checked} case files, {failed} schema errors")
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
