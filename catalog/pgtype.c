/*
** catalog/pgtype.c — PostgreSQL 15's built-in types as pg_type has them
** (the ones starq computes with, the ones pg_catalog's columns have, the
** ones clients look up by name or have compiled in, and the array type of
** each), how starq's coltypes map onto them, their names in casts, and
** format_type(). Rows as PostgreSQL 15.18's pg_type has them
** (tests/test-pgcat.c compares them).
**
** INTERFACE ROUTINES
**   pgobj_type_by_oid, pgobj_type_by_name, pgobj_type_at, pgobj_type_count,
**   pgobj_coltype_oid, pgobj_coltype_typmod, pgobj_oid_coltype,
**   pgobj_format_type
*/
#include <ctype.h>
#include <string.h>

#include "pgobj.h"

/* oid, typname, typlen, typbyval, typtype, typcategory, typispreferred,
** typdelim, typsubscript, typelem, typarray, typinput, typoutput,
** typreceive, typsend, typmodin, typmodout, typanalyze, typalign,
** typstorage, typcollation, format_type(oid, -1) */
static const pgobj_type pgtype_aType[] = {
  {16, "bool", 1, 1, 'b', 'B', 1, ',', 0, 0, 1000, 1242, 1243, 2436, 2437, 0, 0, 0, 'c', 'p', 0, "boolean"},
  {17, "bytea", -1, 0, 'b', 'U', 0, ',', 0, 0, 1001, 1244, 31, 2412, 2413, 0, 0, 0, 'i', 'x', 0, "bytea"},
  {18, "char", 1, 1, 'b', 'Z', 0, ',', 0, 0, 1002, 1245, 33, 2434, 2435, 0, 0, 0, 'c', 'p', 0, "\"char\""},
  {19, "name", 64, 0, 'b', 'S', 0, ',', 6180, 18, 1003, 34, 35, 2422, 2423, 0, 0, 0, 'c', 'p', 950, "name"},
  {20, "int8", 8, 1, 'b', 'N', 0, ',', 0, 0, 1016, 460, 461, 2408, 2409, 0, 0, 0, 'd', 'p', 0, "bigint"},
  {21, "int2", 2, 1, 'b', 'N', 0, ',', 0, 0, 1005, 38, 39, 2404, 2405, 0, 0, 0, 's', 'p', 0, "smallint"},
  {22, "int2vector", -1, 0, 'b', 'A', 0, ',', 6179, 21, 1006, 40, 41, 2410, 2411, 0, 0, 0, 'i', 'p', 0, "int2vector"},
  {23, "int4", 4, 1, 'b', 'N', 0, ',', 0, 0, 1007, 42, 43, 2406, 2407, 0, 0, 0, 'i', 'p', 0, "integer"},
  {24, "regproc", 4, 1, 'b', 'N', 0, ',', 0, 0, 1008, 44, 45, 2444, 2445, 0, 0, 0, 'i', 'p', 0, "regproc"},
  {25, "text", -1, 0, 'b', 'S', 1, ',', 0, 0, 1009, 46, 47, 2414, 2415, 0, 0, 0, 'i', 'x', 100, "text"},
  {26, "oid", 4, 1, 'b', 'N', 1, ',', 0, 0, 1028, 1798, 1799, 2418, 2419, 0, 0, 0, 'i', 'p', 0, "oid"},
  {27, "tid", 6, 0, 'b', 'U', 0, ',', 0, 0, 1010, 48, 49, 2438, 2439, 0, 0, 0, 's', 'p', 0, "tid"},
  {28, "xid", 4, 1, 'b', 'U', 0, ',', 0, 0, 1011, 50, 51, 2440, 2441, 0, 0, 0, 'i', 'p', 0, "xid"},
  {29, "cid", 4, 1, 'b', 'U', 0, ',', 0, 0, 1012, 52, 53, 2442, 2443, 0, 0, 0, 'i', 'p', 0, "cid"},
  {30, "oidvector", -1, 0, 'b', 'A', 0, ',', 6179, 26, 1013, 54, 55, 2420, 2421, 0, 0, 0, 'i', 'p', 0, "oidvector"},
  {114, "json", -1, 0, 'b', 'U', 0, ',', 0, 0, 199, 321, 322, 323, 324, 0, 0, 0, 'i', 'x', 0, "json"},
  {142, "xml", -1, 0, 'b', 'U', 0, ',', 0, 0, 143, 2893, 2894, 2898, 2899, 0, 0, 0, 'i', 'x', 0, "xml"},
  {143, "_xml", -1, 0, 'b', 'A', 0, ',', 6179, 142, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "xml[]"},
  {194, "pg_node_tree", -1, 0, 'b', 'Z', 0, ',', 0, 0, 0, 195, 196, 197, 198, 0, 0, 0, 'i', 'x', 100, "pg_node_tree"},
  {199, "_json", -1, 0, 'b', 'A', 0, ',', 6179, 114, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "json[]"},
  {269, "table_am_handler", 4, 1, 'p', 'P', 0, ',', 0, 0, 0, 267, 268, 0, 0, 0, 0, 0, 'i', 'p', 0, "table_am_handler"},
  {325, "index_am_handler", 4, 1, 'p', 'P', 0, ',', 0, 0, 0, 326, 327, 0, 0, 0, 0, 0, 'i', 'p', 0, "index_am_handler"},
  {600, "point", 16, 0, 'b', 'G', 0, ',', 6180, 701, 1017, 117, 118, 2428, 2429, 0, 0, 0, 'd', 'p', 0, "point"},
  {650, "cidr", -1, 0, 'b', 'I', 0, ',', 0, 0, 651, 1267, 1427, 2498, 2499, 0, 0, 0, 'i', 'm', 0, "cidr"},
  {651, "_cidr", -1, 0, 'b', 'A', 0, ',', 6179, 650, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "cidr[]"},
  {700, "float4", 4, 1, 'b', 'N', 0, ',', 0, 0, 1021, 200, 201, 2424, 2425, 0, 0, 0, 'i', 'p', 0, "real"},
  {701, "float8", 8, 1, 'b', 'N', 1, ',', 0, 0, 1022, 214, 215, 2426, 2427, 0, 0, 0, 'd', 'p', 0, "double precision"},
  {705, "unknown", -2, 0, 'p', 'X', 0, ',', 0, 0, 0, 109, 110, 2416, 2417, 0, 0, 0, 'c', 'p', 0, "unknown"},
  {790, "money", 8, 1, 'b', 'N', 0, ',', 0, 0, 791, 886, 887, 2492, 2493, 0, 0, 0, 'd', 'p', 0, "money"},
  {791, "_money", -1, 0, 'b', 'A', 0, ',', 6179, 790, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'd', 'x', 0, "money[]"},
  {829, "macaddr", 6, 0, 'b', 'U', 0, ',', 0, 0, 1040, 436, 437, 2494, 2495, 0, 0, 0, 'i', 'p', 0, "macaddr"},
  {869, "inet", -1, 0, 'b', 'I', 1, ',', 0, 0, 1041, 910, 911, 2496, 2497, 0, 0, 0, 'i', 'm', 0, "inet"},
  {1000, "_bool", -1, 0, 'b', 'A', 0, ',', 6179, 16, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "boolean[]"},
  {1001, "_bytea", -1, 0, 'b', 'A', 0, ',', 6179, 17, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "bytea[]"},
  {1002, "_char", -1, 0, 'b', 'A', 0, ',', 6179, 18, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "\"char\"[]"},
  {1003, "_name", -1, 0, 'b', 'A', 0, ',', 6179, 19, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 950, "name[]"},
  {1005, "_int2", -1, 0, 'b', 'A', 0, ',', 6179, 21, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "smallint[]"},
  {1006, "_int2vector", -1, 0, 'b', 'A', 0, ',', 6179, 22, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "int2vector[]"},
  {1007, "_int4", -1, 0, 'b', 'A', 0, ',', 6179, 23, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "integer[]"},
  {1008, "_regproc", -1, 0, 'b', 'A', 0, ',', 6179, 24, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "regproc[]"},
  {1009, "_text", -1, 0, 'b', 'A', 0, ',', 6179, 25, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 100, "text[]"},
  {1010, "_tid", -1, 0, 'b', 'A', 0, ',', 6179, 27, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "tid[]"},
  {1011, "_xid", -1, 0, 'b', 'A', 0, ',', 6179, 28, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "xid[]"},
  {1012, "_cid", -1, 0, 'b', 'A', 0, ',', 6179, 29, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "cid[]"},
  {1013, "_oidvector", -1, 0, 'b', 'A', 0, ',', 6179, 30, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "oidvector[]"},
  {1014, "_bpchar", -1, 0, 'b', 'A', 0, ',', 6179, 1042, 0, 750, 751, 2400, 2401, 2913, 2914, 3816, 'i', 'x', 100, "bpchar[]"},
  {1015, "_varchar", -1, 0, 'b', 'A', 0, ',', 6179, 1043, 0, 750, 751, 2400, 2401, 2915, 2916, 3816, 'i', 'x', 100, "character varying[]"},
  {1016, "_int8", -1, 0, 'b', 'A', 0, ',', 6179, 20, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'd', 'x', 0, "bigint[]"},
  {1017, "_point", -1, 0, 'b', 'A', 0, ',', 6179, 600, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'd', 'x', 0, "point[]"},
  {1021, "_float4", -1, 0, 'b', 'A', 0, ',', 6179, 700, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "real[]"},
  {1022, "_float8", -1, 0, 'b', 'A', 0, ',', 6179, 701, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'd', 'x', 0, "double precision[]"},
  {1028, "_oid", -1, 0, 'b', 'A', 0, ',', 6179, 26, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "oid[]"},
  {1033, "aclitem", 12, 0, 'b', 'U', 0, ',', 0, 0, 1034, 1031, 1032, 0, 0, 0, 0, 0, 'i', 'p', 0, "aclitem"},
  {1034, "_aclitem", -1, 0, 'b', 'A', 0, ',', 6179, 1033, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "aclitem[]"},
  {1040, "_macaddr", -1, 0, 'b', 'A', 0, ',', 6179, 829, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "macaddr[]"},
  {1041, "_inet", -1, 0, 'b', 'A', 0, ',', 6179, 869, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "inet[]"},
  {1042, "bpchar", -1, 0, 'b', 'S', 0, ',', 0, 0, 1014, 1044, 1045, 2430, 2431, 2913, 2914, 0, 'i', 'x', 100, "bpchar"},
  {1043, "varchar", -1, 0, 'b', 'S', 0, ',', 0, 0, 1015, 1046, 1047, 2432, 2433, 2915, 2916, 0, 'i', 'x', 100, "character varying"},
  {1082, "date", 4, 1, 'b', 'D', 0, ',', 0, 0, 1182, 1084, 1085, 2468, 2469, 0, 0, 0, 'i', 'p', 0, "date"},
  {1083, "time", 8, 1, 'b', 'D', 0, ',', 0, 0, 1183, 1143, 1144, 2470, 2471, 2909, 2910, 0, 'd', 'p', 0, "time without time zone"},
  {1114, "timestamp", 8, 1, 'b', 'D', 0, ',', 0, 0, 1115, 1312, 1313, 2474, 2475, 2905, 2906, 0, 'd', 'p', 0, "timestamp without time zone"},
  {1115, "_timestamp", -1, 0, 'b', 'A', 0, ',', 6179, 1114, 0, 750, 751, 2400, 2401, 2905, 2906, 3816, 'd', 'x', 0, "timestamp without time zone[]"},
  {1182, "_date", -1, 0, 'b', 'A', 0, ',', 6179, 1082, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "date[]"},
  {1183, "_time", -1, 0, 'b', 'A', 0, ',', 6179, 1083, 0, 750, 751, 2400, 2401, 2909, 2910, 3816, 'd', 'x', 0, "time without time zone[]"},
  {1184, "timestamptz", 8, 1, 'b', 'D', 1, ',', 0, 0, 1185, 1150, 1151, 2476, 2477, 2907, 2908, 0, 'd', 'p', 0, "timestamp with time zone"},
  {1185, "_timestamptz", -1, 0, 'b', 'A', 0, ',', 6179, 1184, 0, 750, 751, 2400, 2401, 2907, 2908, 3816, 'd', 'x', 0, "timestamp with time zone[]"},
  {1186, "interval", 16, 0, 'b', 'T', 1, ',', 0, 0, 1187, 1160, 1161, 2478, 2479, 2903, 2904, 0, 'd', 'p', 0, "interval"},
  {1187, "_interval", -1, 0, 'b', 'A', 0, ',', 6179, 1186, 0, 750, 751, 2400, 2401, 2903, 2904, 3816, 'd', 'x', 0, "interval[]"},
  {1231, "_numeric", -1, 0, 'b', 'A', 0, ',', 6179, 1700, 0, 750, 751, 2400, 2401, 2917, 2918, 3816, 'i', 'x', 0, "numeric[]"},
  {1263, "_cstring", -1, 0, 'b', 'A', 0, ',', 6179, 2275, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "cstring[]"},
  {1266, "timetz", 12, 0, 'b', 'D', 0, ',', 0, 0, 1270, 1350, 1351, 2472, 2473, 2911, 2912, 0, 'd', 'p', 0, "time with time zone"},
  {1270, "_timetz", -1, 0, 'b', 'A', 0, ',', 6179, 1266, 0, 750, 751, 2400, 2401, 2911, 2912, 3816, 'd', 'x', 0, "time with time zone[]"},
  {1560, "bit", -1, 0, 'b', 'V', 0, ',', 0, 0, 1561, 1564, 1565, 2456, 2457, 2919, 2920, 0, 'i', 'x', 0, "\"bit\""},
  {1561, "_bit", -1, 0, 'b', 'A', 0, ',', 6179, 1560, 0, 750, 751, 2400, 2401, 2919, 2920, 3816, 'i', 'x', 0, "\"bit\"[]"},
  {1562, "varbit", -1, 0, 'b', 'V', 1, ',', 0, 0, 1563, 1579, 1580, 2458, 2459, 2902, 2921, 0, 'i', 'x', 0, "bit varying"},
  {1563, "_varbit", -1, 0, 'b', 'A', 0, ',', 6179, 1562, 0, 750, 751, 2400, 2401, 2902, 2921, 3816, 'i', 'x', 0, "bit varying[]"},
  {1700, "numeric", -1, 0, 'b', 'N', 0, ',', 0, 0, 1231, 1701, 1702, 2460, 2461, 2917, 2918, 0, 'i', 'm', 0, "numeric"},
  {1790, "refcursor", -1, 0, 'b', 'U', 0, ',', 0, 0, 2201, 46, 47, 2414, 2415, 0, 0, 0, 'i', 'x', 0, "refcursor"},
  {2201, "_refcursor", -1, 0, 'b', 'A', 0, ',', 6179, 1790, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "refcursor[]"},
  {2202, "regprocedure", 4, 1, 'b', 'N', 0, ',', 0, 0, 2207, 2212, 2213, 2446, 2447, 0, 0, 0, 'i', 'p', 0, "regprocedure"},
  {2203, "regoper", 4, 1, 'b', 'N', 0, ',', 0, 0, 2208, 2214, 2215, 2448, 2449, 0, 0, 0, 'i', 'p', 0, "regoper"},
  {2204, "regoperator", 4, 1, 'b', 'N', 0, ',', 0, 0, 2209, 2216, 2217, 2450, 2451, 0, 0, 0, 'i', 'p', 0, "regoperator"},
  {2205, "regclass", 4, 1, 'b', 'N', 0, ',', 0, 0, 2210, 2218, 2219, 2452, 2453, 0, 0, 0, 'i', 'p', 0, "regclass"},
  {2206, "regtype", 4, 1, 'b', 'N', 0, ',', 0, 0, 2211, 2220, 2221, 2454, 2455, 0, 0, 0, 'i', 'p', 0, "regtype"},
  {2207, "_regprocedure", -1, 0, 'b', 'A', 0, ',', 6179, 2202, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "regprocedure[]"},
  {2208, "_regoper", -1, 0, 'b', 'A', 0, ',', 6179, 2203, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "regoper[]"},
  {2209, "_regoperator", -1, 0, 'b', 'A', 0, ',', 6179, 2204, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "regoperator[]"},
  {2210, "_regclass", -1, 0, 'b', 'A', 0, ',', 6179, 2205, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "regclass[]"},
  {2211, "_regtype", -1, 0, 'b', 'A', 0, ',', 6179, 2206, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "regtype[]"},
  {2249, "record", -1, 0, 'p', 'P', 0, ',', 0, 0, 2287, 2290, 2291, 2402, 2403, 0, 0, 0, 'd', 'x', 0, "record"},
  {2275, "cstring", -2, 0, 'p', 'P', 0, ',', 0, 0, 1263, 2292, 2293, 2500, 2501, 0, 0, 0, 'c', 'p', 0, "cstring"},
  {2276, "any", 4, 1, 'p', 'P', 0, ',', 0, 0, 0, 2294, 2295, 0, 0, 0, 0, 0, 'i', 'p', 0, "\"any\""},
  {2277, "anyarray", -1, 0, 'p', 'P', 0, ',', 0, 0, 0, 2296, 2297, 2502, 2503, 0, 0, 0, 'd', 'x', 0, "anyarray"},
  {2278, "void", 4, 1, 'p', 'P', 0, ',', 0, 0, 0, 2298, 2299, 3120, 3121, 0, 0, 0, 'i', 'p', 0, "void"},
  {2279, "trigger", 4, 1, 'p', 'P', 0, ',', 0, 0, 0, 2300, 2301, 0, 0, 0, 0, 0, 'i', 'p', 0, "trigger"},
  {2281, "internal", 8, 1, 'p', 'P', 0, ',', 0, 0, 0, 2304, 2305, 0, 0, 0, 0, 0, 'd', 'p', 0, "internal"},
  {2283, "anyelement", 4, 1, 'p', 'P', 0, ',', 0, 0, 0, 2312, 2313, 0, 0, 0, 0, 0, 'i', 'p', 0, "anyelement"},
  {2287, "_record", -1, 0, 'p', 'P', 0, ',', 6179, 2249, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'd', 'x', 0, "record[]"},
  {2776, "anynonarray", 4, 1, 'p', 'P', 0, ',', 0, 0, 0, 2777, 2778, 0, 0, 0, 0, 0, 'i', 'p', 0, "anynonarray"},
  {2950, "uuid", 16, 0, 'b', 'U', 0, ',', 0, 0, 2951, 2952, 2953, 2961, 2962, 0, 0, 0, 'c', 'p', 0, "uuid"},
  {2951, "_uuid", -1, 0, 'b', 'A', 0, ',', 6179, 2950, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "uuid[]"},
  {3500, "anyenum", 4, 1, 'p', 'P', 0, ',', 0, 0, 0, 3504, 3505, 0, 0, 0, 0, 0, 'i', 'p', 0, "anyenum"},
  {3802, "jsonb", -1, 0, 'b', 'U', 0, ',', 6098, 0, 3807, 3806, 3804, 3805, 3803, 0, 0, 0, 'i', 'x', 0, "jsonb"},
  {3807, "_jsonb", -1, 0, 'b', 'A', 0, ',', 6179, 3802, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "jsonb[]"},
  {3831, "anyrange", -1, 0, 'p', 'P', 0, ',', 0, 0, 0, 3832, 3833, 0, 0, 0, 0, 0, 'd', 'x', 0, "anyrange"},
  {3904, "int4range", -1, 0, 'r', 'R', 0, ',', 0, 0, 3905, 3834, 3835, 3836, 3837, 0, 0, 3916, 'i', 'x', 0, "int4range"},
  {3905, "_int4range", -1, 0, 'b', 'A', 0, ',', 6179, 3904, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "int4range[]"},
  {3906, "numrange", -1, 0, 'r', 'R', 0, ',', 0, 0, 3907, 3834, 3835, 3836, 3837, 0, 0, 3916, 'i', 'x', 0, "numrange"},
  {3907, "_numrange", -1, 0, 'b', 'A', 0, ',', 6179, 3906, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "numrange[]"},
  {3908, "tsrange", -1, 0, 'r', 'R', 0, ',', 0, 0, 3909, 3834, 3835, 3836, 3837, 0, 0, 3916, 'd', 'x', 0, "tsrange"},
  {3909, "_tsrange", -1, 0, 'b', 'A', 0, ',', 6179, 3908, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'd', 'x', 0, "tsrange[]"},
  {3910, "tstzrange", -1, 0, 'r', 'R', 0, ',', 0, 0, 3911, 3834, 3835, 3836, 3837, 0, 0, 3916, 'd', 'x', 0, "tstzrange"},
  {3911, "_tstzrange", -1, 0, 'b', 'A', 0, ',', 6179, 3910, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'd', 'x', 0, "tstzrange[]"},
  {3912, "daterange", -1, 0, 'r', 'R', 0, ',', 0, 0, 3913, 3834, 3835, 3836, 3837, 0, 0, 3916, 'i', 'x', 0, "daterange"},
  {3913, "_daterange", -1, 0, 'b', 'A', 0, ',', 6179, 3912, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "daterange[]"},
  {3926, "int8range", -1, 0, 'r', 'R', 0, ',', 0, 0, 3927, 3834, 3835, 3836, 3837, 0, 0, 3916, 'd', 'x', 0, "int8range"},
  {3927, "_int8range", -1, 0, 'b', 'A', 0, ',', 6179, 3926, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'd', 'x', 0, "int8range[]"},
  {4072, "jsonpath", -1, 0, 'b', 'U', 0, ',', 0, 0, 4073, 4001, 4003, 4002, 4004, 0, 0, 0, 'i', 'x', 0, "jsonpath"},
  {4073, "_jsonpath", -1, 0, 'b', 'A', 0, ',', 6179, 4072, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "jsonpath[]"},
  {4089, "regnamespace", 4, 1, 'b', 'N', 0, ',', 0, 0, 4090, 4084, 4085, 4087, 4088, 0, 0, 0, 'i', 'p', 0, "regnamespace"},
  {4090, "_regnamespace", -1, 0, 'b', 'A', 0, ',', 6179, 4089, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "regnamespace[]"},
  {4096, "regrole", 4, 1, 'b', 'N', 0, ',', 0, 0, 4097, 4098, 4092, 4094, 4095, 0, 0, 0, 'i', 'p', 0, "regrole"},
  {4097, "_regrole", -1, 0, 'b', 'A', 0, ',', 6179, 4096, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "regrole[]"},
  {4191, "regcollation", 4, 1, 'b', 'N', 0, ',', 0, 0, 4192, 4193, 4194, 4196, 4197, 0, 0, 0, 'i', 'p', 0, "regcollation"},
  {4192, "_regcollation", -1, 0, 'b', 'A', 0, ',', 6179, 4191, 0, 750, 751, 2400, 2401, 0, 0, 3816, 'i', 'x', 0, "regcollation[]"},
};
#define PGTYPE_N ((int)(sizeof(pgtype_aType) / sizeof(pgtype_aType[0])))

/* Type oids this file names. */
#define PGTYPE_BOOL 16u
#define PGTYPE_BYTEA 17u
#define PGTYPE_CHAR 18u
#define PGTYPE_NAME 19u
#define PGTYPE_INT8 20u
#define PGTYPE_INT2 21u
#define PGTYPE_INT2VECTOR 22u
#define PGTYPE_INT4 23u
#define PGTYPE_REGPROC 24u
#define PGTYPE_TEXT 25u
#define PGTYPE_OID 26u
#define PGTYPE_XID 28u
#define PGTYPE_OIDVECTOR 30u
#define PGTYPE_PG_NODE_TREE 194u
#define PGTYPE_FLOAT4 700u
#define PGTYPE_FLOAT8 701u
#define PGTYPE_UNKNOWN 705u
#define PGTYPE_INET 869u
#define PGTYPE_ACLITEM 1033u
#define PGTYPE_BPCHAR 1042u
#define PGTYPE_VARCHAR 1043u
#define PGTYPE_DATE 1082u
#define PGTYPE_TIME 1083u
#define PGTYPE_TIMESTAMP 1114u
#define PGTYPE_TIMESTAMPTZ 1184u
#define PGTYPE_INTERVAL 1186u
#define PGTYPE_TIMETZ 1266u
#define PGTYPE_BIT 1560u
#define PGTYPE_VARBIT 1562u
#define PGTYPE_NUMERIC 1700u
#define PGTYPE_REGCLASS 2205u
#define PGTYPE_REGTYPE 2206u
#define PGTYPE_ANYARRAY 2277u
#define PGTYPE_REGNAMESPACE 4089u

/* The oid of array_subscript_handler: a true array's typsubscript. */
#define PGTYPE_ARRAY_SUBSCRIPT_HANDLER 6179u

const pgobj_type *pgobj_type_by_oid(uint32_t oid) {
  int lo = 0, hi = PGTYPE_N - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (pgtype_aType[mid].oid == oid) return &pgtype_aType[mid];
    if (pgtype_aType[mid].oid < oid) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

int pgobj_type_count(void) {
  return PGTYPE_N;
}

const pgobj_type *pgobj_type_at(int i) {
  return i >= 0 && i < PGTYPE_N ? &pgtype_aType[i] : NULL;
}

/* Returns 1 for a true array type (format_type writes its element and
** "[]"): int2vector and oidvector have elements but are not. */
static int pgtype_is_array(const pgobj_type *t) {
  return t->iElem != 0 && t->iSubscript == PGTYPE_ARRAY_SUBSCRIPT_HANDLER && t->cStorage != 'p';
}

/* ---- names ------------------------------------------------------------------------ */

/* Names a type goes by besides its typname and format_type spelling. */
static const struct {
  const char *zName;
  uint32_t oid;
} pgtype_aAlias[] = {
    {"int", PGTYPE_INT4},          {"integer", PGTYPE_INT4},      {"smallint", PGTYPE_INT2},
    {"bigint", PGTYPE_INT8},       {"real", PGTYPE_FLOAT4},       {"float", PGTYPE_FLOAT8},
    {"double precision", PGTYPE_FLOAT8}, {"decimal", PGTYPE_NUMERIC}, {"dec", PGTYPE_NUMERIC},
    {"boolean", PGTYPE_BOOL},      {"character varying", PGTYPE_VARCHAR},
    {"char varying", PGTYPE_VARCHAR}, {"character", PGTYPE_BPCHAR}, {"char", PGTYPE_BPCHAR},
    {"\"char\"", PGTYPE_CHAR},     {"timestamp without time zone", PGTYPE_TIMESTAMP},
    {"timestamp with time zone", PGTYPE_TIMESTAMPTZ}, {"time without time zone", PGTYPE_TIME},
    {"time with time zone", PGTYPE_TIMETZ}, {"bit varying", PGTYPE_VARBIT},
};

/* Copies the type name z[0..n) into zOut folded as the parser folds it:
** lower case outside double quotes, quotes kept only around a whole name
** that needs them ("char"), runs of space made one, any modifier in
** parentheses dropped, "pg_catalog." dropped. Sets *pnDim to the "[]"s.
** Returns 0, or -1 for a name too long or malformed. */
static int pgtype_name_fold(const char *z, size_t n, char *zOut, size_t nOut, int *pnDim) {
  size_t k = 0;
  int bQuote = 0, nParen = 0;
  *pnDim = 0;
  while (n > 0 && isspace((unsigned char)z[0])) z++, n--;
  while (n > 0 && isspace((unsigned char)z[n - 1])) n--;
  while (n >= 2 && z[n - 2] == '[' && z[n - 1] == ']') {
    (*pnDim)++;
    n -= 2;
    while (n > 0 && isspace((unsigned char)z[n - 1])) n--;
  }
  for (size_t i = 0; i < n; i++) {
    char c = z[i];
    if (c == '"') bQuote = !bQuote;
    if (!bQuote && c == '(') nParen++;
    if (nParen > 0) {
      if (c == ')') nParen--;
      continue;
    }
    if (!bQuote && isspace((unsigned char)c)) {
      if (k > 0 && zOut[k - 1] == ' ') continue;
      c = ' ';
    }
    if (!bQuote) c = (char)tolower((unsigned char)c);
    if (k + 1 >= nOut) return -1;
    zOut[k++] = c;
  }
  while (k > 0 && zOut[k - 1] == ' ') k--;
  zOut[k] = 0;
  if (bQuote || nParen != 0 || k == 0) return -1;
  if (strncmp(zOut, "pg_catalog.", 11) == 0) memmove(zOut, zOut + 11, k - 11 + 1);
  /* A quoted plain name is that name; "char" stays quoted: it differs. */
  k = strlen(zOut);
  if (k > 2 && zOut[0] == '"' && zOut[k - 1] == '"' && strcmp(zOut, "\"char\"") != 0) {
    memmove(zOut, zOut + 1, k - 2);
    zOut[k - 2] = 0;
  }
  return 0;
}

const pgobj_type *pgobj_type_by_name(const char *z, size_t n) {
  char zName[128];
  int nDim;
  const pgobj_type *t = NULL;
  if (pgtype_name_fold(z, n, zName, sizeof(zName), &nDim) != 0) return NULL;
  for (size_t i = 0; t == NULL && i < sizeof(pgtype_aAlias) / sizeof(pgtype_aAlias[0]); i++) {
    if (strcmp(pgtype_aAlias[i].zName, zName) == 0) t = pgobj_type_by_oid(pgtype_aAlias[i].oid);
  }
  for (int i = 0; t == NULL && i < PGTYPE_N; i++) {
    if (strcmp(pgtype_aType[i].zName, zName) == 0) t = &pgtype_aType[i];
  }
  if (t != NULL && nDim > 0) {
    if (pgtype_is_array(t) || t->iArray == 0) return NULL;   /* int4[][] is int4[] */
    t = pgobj_type_by_oid(t->iArray);
  }
  return t;
}

/* ---- coltypes ------------------------------------------------------------------------ */

static const struct {
  coltype_id eId;
  uint32_t oid;
} pgtype_aCol[] = {
    {COLTYPE_SMALLINT, PGTYPE_INT2},        {COLTYPE_INTEGER, PGTYPE_INT4},
    {COLTYPE_BIGINT, PGTYPE_INT8},          {COLTYPE_DOUBLE, PGTYPE_FLOAT8},
    {COLTYPE_DECIMAL, PGTYPE_NUMERIC},      {COLTYPE_DATE, PGTYPE_DATE},
    {COLTYPE_CHAR, PGTYPE_BPCHAR},          {COLTYPE_VARCHAR, PGTYPE_VARCHAR},
    {COLTYPE_TEXT, PGTYPE_TEXT},            {COLTYPE_BOOLEAN, PGTYPE_BOOL},
    {COLTYPE_UNKNOWN, PGTYPE_UNKNOWN},      {COLTYPE_TIMESTAMP, PGTYPE_TIMESTAMP},
    {COLTYPE_TIMESTAMPTZ, PGTYPE_TIMESTAMPTZ}, {COLTYPE_TIME, PGTYPE_TIME},
    {COLTYPE_TIMETZ, PGTYPE_TIMETZ},        {COLTYPE_INTERVAL, PGTYPE_INTERVAL},
    {COLTYPE_NUMERIC, PGTYPE_NUMERIC},      {COLTYPE_FLOAT4, PGTYPE_FLOAT4},
    {COLTYPE_OID, PGTYPE_OID},              {COLTYPE_REGCLASS, PGTYPE_REGCLASS},
    {COLTYPE_REGTYPE, PGTYPE_REGTYPE},      {COLTYPE_REGPROC, PGTYPE_REGPROC},
    {COLTYPE_NAME, PGTYPE_NAME},            {COLTYPE_PGCHAR, PGTYPE_CHAR},
    {COLTYPE_INT2VECTOR, PGTYPE_INT2VECTOR}, {COLTYPE_OIDVECTOR, PGTYPE_OIDVECTOR},
    {COLTYPE_ACLITEM, PGTYPE_ACLITEM},      {COLTYPE_PG_NODE_TREE, PGTYPE_PG_NODE_TREE},
    {COLTYPE_XID, PGTYPE_XID},              {COLTYPE_INET, PGTYPE_INET},
    {COLTYPE_BYTEA, PGTYPE_BYTEA},          {COLTYPE_ANYARRAY, PGTYPE_ANYARRAY},
    {COLTYPE_REGNAMESPACE, PGTYPE_REGNAMESPACE},
};
#define PGTYPE_COL_N ((int)(sizeof(pgtype_aCol) / sizeof(pgtype_aCol[0])))

uint32_t pgobj_coltype_oid(coltype t) {
  if (t.eId == COLTYPE_ARRAY) {
    const pgobj_type *p = pgobj_type_by_oid(pgobj_coltype_oid(coltype_elem(t)));
    return p != NULL ? p->iArray : 0;
  }
  for (int i = 0; i < PGTYPE_COL_N; i++) {
    if (pgtype_aCol[i].eId == t.eId) return pgtype_aCol[i].oid;
  }
  return 0;
}

int32_t pgobj_coltype_typmod(coltype t) {
  switch (t.eId) {
    case COLTYPE_DECIMAL:
    case COLTYPE_NUMERIC:
      /* ((precision << 16) | scale) + VARHDRSZ, as numeric's typmod_in */
      return t.nPrecision > 0 ? ((t.nPrecision << 16) | t.nScale) + 4 : -1;
    case COLTYPE_CHAR:
    case COLTYPE_VARCHAR: return t.nLength > 0 ? t.nLength + 4 : -1;
    case COLTYPE_TIMESTAMP:
    case COLTYPE_TIMESTAMPTZ:
    case COLTYPE_TIME:
    case COLTYPE_TIMETZ: return t.nScale != COLTYPE_TIME_PRECISION_MAX ? t.nScale : -1;
    case COLTYPE_ARRAY: return pgobj_coltype_typmod(coltype_elem(t));
    default: return -1;
  }
}

int pgobj_oid_coltype(uint32_t oid, int32_t typmod, coltype *pt) {
  const pgobj_type *p = pgobj_type_by_oid(oid);
  memset(pt, 0, sizeof(*pt));
  if (p != NULL && pgtype_is_array(p)) {
    if (pgobj_oid_coltype(p->iElem, typmod, pt) != 0 || pt->eId == COLTYPE_ARRAY) return -1;
    *pt = coltype_array(*pt);
    return 0;
  }
  for (int i = 0; i < PGTYPE_COL_N; i++) {
    if (pgtype_aCol[i].oid != oid) continue;
    pt->eId = pgtype_aCol[i].eId;
    if (pt->eId == COLTYPE_DECIMAL) pt->eId = COLTYPE_NUMERIC;   /* numeric of any width */
    switch (pt->eId) {
      case COLTYPE_NUMERIC:
        if (typmod >= 4) {
          pt->nPrecision = ((typmod - 4) >> 16) & 0xffff;
          pt->nScale = (typmod - 4) & 0xffff;
        }
        break;
      case COLTYPE_CHAR:
      case COLTYPE_VARCHAR: pt->nLength = typmod >= 4 ? typmod - 4 : 0; break;
      case COLTYPE_TIMESTAMP:
      case COLTYPE_TIMESTAMPTZ:
      case COLTYPE_TIME:
      case COLTYPE_TIMETZ:
        pt->nScale = typmod >= 0 && typmod <= COLTYPE_TIME_PRECISION_MAX ? typmod
                                                                         : COLTYPE_TIME_PRECISION_MAX;
        break;
      default: break;
    }
    return 0;
  }
  return -1;
}

/* ---- format_type ----------------------------------------------------------------------- */

/* Appends type p with typmod (PGOBJ_TYPMOD_NONE: format_type's NULL) as
** format_type_extended does. */
static void pgtype_format(const pgobj_type *p, int32_t typmod, int bGiven, strbuf *s) {
  int bMod = bGiven && typmod >= 0;
  switch (p->oid) {
    case PGTYPE_BPCHAR:
      /* bpchar without a typmod is not character, which means character(1) */
      /* bpchartypmodout shows a length only past the 4-byte header */
      if (bMod && typmod > 4) strbuf_printf(s, "character(%d)", (int)(typmod - 4));
      else if (bMod) strbuf_puts(s, "character");
      else strbuf_puts(s, bGiven ? "bpchar" : "character");
      return;
    case PGTYPE_VARCHAR:
      if (bMod && typmod > 4) strbuf_printf(s, "character varying(%d)", (int)(typmod - 4));
      else strbuf_puts(s, "character varying");
      return;
    case PGTYPE_NUMERIC:
      /* a typmod below the 4-byte header is not a valid numeric one */
      if (bMod && typmod >= 4) {
        strbuf_printf(s, "numeric(%d,%d)", (int)(((typmod - 4) >> 16) & 0xffff),
                      (int)(int16_t)((typmod - 4) & 0xffff));
      } else {
        strbuf_puts(s, "numeric");
      }
      return;
    case PGTYPE_BIT:
      /* like bpchar: bare "bit" means bit(1), so a -1 typmod quotes it */
      if (bMod) strbuf_printf(s, "bit(%d)", (int)typmod);
      else strbuf_puts(s, bGiven ? "\"bit\"" : "bit");
      return;
    case PGTYPE_VARBIT:
      strbuf_puts(s, "bit varying");
      if (bMod) strbuf_printf(s, "(%d)", (int)typmod);
      return;
    case PGTYPE_TIME:
    case PGTYPE_TIMETZ:
    case PGTYPE_TIMESTAMP:
    case PGTYPE_TIMESTAMPTZ: {
      const char *zBase = p->oid == PGTYPE_TIME || p->oid == PGTYPE_TIMETZ ? "time" : "timestamp";
      const char *zZone = p->oid == PGTYPE_TIME || p->oid == PGTYPE_TIMESTAMP
                              ? "without time zone" : "with time zone";
      if (bMod) strbuf_printf(s, "%s(%d) %s", zBase, (int)typmod, zZone);
      else strbuf_printf(s, "%s %s", zBase, zZone);
      return;
    }
    case PGTYPE_INTERVAL:
      strbuf_puts(s, "interval");
      /* the precision in the low 16 bits; 0xFFFF: none given */
      if (bMod && (typmod & 0xffff) != 0xffff) strbuf_printf(s, "(%d)", (int)(typmod & 0xffff));
      return;
    case 16:   /* boolean */
    case 20:   /* bigint */
    case 21:   /* smallint */
    case 23:   /* integer */
    case 700:  /* real */
    case 701:  /* double precision */
      /* the SQL-named types take no modifier: one given is not shown */
      strbuf_puts(s, p->zFormat);
      return;
    default:
      strbuf_puts(s, p->zFormat);
      /* a type without a typmod output function shows the number */
      if (bMod && p->iModOut == 0) strbuf_printf(s, "(%d)", (int)typmod);
      return;
  }
}

void pgobj_format_type(uint32_t oid, int32_t typmod, strbuf *s) {
  const pgobj_type *p;
  int bGiven = typmod != PGOBJ_TYPMOD_NONE;
  if (oid == 0) {
    strbuf_puts(s, "-");
    return;
  }
  if ((p = pgobj_type_by_oid(oid)) == NULL) {
    strbuf_puts(s, "???");
    return;
  }
  if (pgtype_is_array(p)) {
    const pgobj_type *e = pgobj_type_by_oid(p->iElem);
    if (e == NULL) {
      strbuf_puts(s, "???[]");
      return;
    }
    pgtype_format(e, typmod, bGiven, s);
    strbuf_puts(s, "[]");
    return;
  }
  pgtype_format(p, typmod, bGiven, s);
}
