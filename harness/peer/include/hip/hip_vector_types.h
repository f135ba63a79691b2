/*
 * HIP's vector types (char1 ... double4) for host code: plain aggregates
 * with members x, y, z, w of the scalar type, so sizeof(T) is the element
 * count times the scalar size as hip-tests' helpers assume, plus the
 * make_<type>N constructors. HIP's C++ operators on them are not offered.
 */
#ifndef HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H
#define HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H

#define HIP_PEER_VEC1_(T, N)                                                                       \
    typedef struct N##1 {                                                                          \
        T x;                                                                                       \
    }                                                                                              \
    N##1;                                                                                          \
    static inline N##1 make_##N##1(T x) {                                                          \
        N##1 v;                                                                                    \
        v.x = x;                                                                                   \
        return v;                                                                                  \
    }
#define HIP_PEER_VEC2_(T, N)                                                                       \
    typedef struct N##2 {                                                                          \
        T x, y;                                                                                    \
    }                                                                                              \
    N##2;                                                                                          \
    static inline N##2 make_##N##2(T x, T y) {                                                     \
        N##2 v;                                                                                    \
        v.x = x;                                                                                   \
        v.y = y;                                                                                   \
        return v;                                                                                  \
    }
#define HIP_PEER_VEC3_(T, N)                                                                       \
    typedef struct N##3 {                                                                          \
        T x, y, z;                                                                                 \
    }                                                                                              \
    N##3;                                                                                          \
    static inline N##3 make_##N##3(T x, T y, T z) {                                                \
        N##3 v;                                                                                    \
        v.x = x;                                                                                   \
        v.y = y;                                                                                   \
        v.z = z;                                                                                   \
        return v;                                                                                  \
    }
#define HIP_PEER_VEC4_(T, N)                                                                       \
    typedef struct N##4 {                                                                          \
        T x, y, z, w;                                                                              \
    }                                                                                              \
    N##4;                                                                                          \
    static inline N##4 make_##N##4(T x, T y, T z, T w) {                                           \
        N##4 v;                                                                                    \
        v.x = x;                                                                                   \
        v.y = y;                                                                                   \
        v.z = z;                                                                                   \
        v.w = w;                                                                                   \
        return v;                                                                                  \
    }
#define HIP_PEER_VECS_(T, N)                                                                       \
    HIP_PEER_VEC1_(T, N)                                                                           \
    HIP_PEER_VEC2_(T, N)                                                                           \
    HIP_PEER_VEC3_(T, N)                                                                           \
    HIP_PEER_VEC4_(T, N)

HIP_PEER_VECS_(char, char)
HIP_PEER_VECS_(unsigned char, uchar)
HIP_PEER_VECS_(short, short)
HIP_PEER_VECS_(unsigned short, ushort)
HIP_PEER_VECS_(int, int)
HIP_PEER_VECS_(unsigned int, uint)
HIP_PEER_VECS_(long, long)
HIP_PEER_VECS_(unsigned long, ulong)
HIP_PEER_VECS_(long long, longlong)
HIP_PEER_VECS_(unsigned long long, ulonglong)
HIP_PEER_VECS_(float, float)
HIP_PEER_VECS_(double, double)

#undef HIP_PEER_VECS_
#undef HIP_PEER_VEC1_
#undef HIP_PEER_VEC2_
#undef HIP_PEER_VEC3_
#undef HIP_PEER_VEC4_

#endif /* HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H */
