/* array_test.c: the array and map functions of src/exec/fn_array.c and
 * fn_array2.c through the public expression API: constants and columns,
 * NULL elements and NULL arguments, nested and empty arrays, Map access,
 * and argument errors (code and message). Expected text and type names are
 * what ClickHouse prints for the same calls. The lambda forms are in
 * lambda_test.c.
 */
#define ET_STYLE_BUILDER
#include "exec_test_util.h"

/* ---- array(...) ---------------------------------------------------- */

static void test_array_literals(void **state) {
    (void)state;
    EXPECT(CALL("array", 2, U(1), U(2)), "Array(UInt8): [1,2]");
    EXPECT(CALL("array", 2, U(1), I(-1)), "Array(Int16): [1,-1]");
    EXPECT(CALL("array", 2, U(1), K("Float64", "2.5")), "Array(Float64): [1,2.5]");
    EXPECT(CALL("array", 2, U(1), NUL()), "Array(Nullable(UInt8)): [1,NULL]");
    EXPECT(CALL("array", 0), "Array(Nothing): []");
    EXPECT(CALL("array", 1, NUL()), "Array(Nullable(Nothing)): [NULL]");
    EXPECT(CALL("array", 2, S("a"), K("FixedString(2)", "b")), "Array(String): ['a','b']");
    EXPECT(CALL("array", 2, K("Decimal(9, 1)", "1.5"), U(2)), "Array(Decimal(9, 1)): [1.5,2]");
    EXPECT(CALL("array", 2, K("Date", "2020-01-02"), K("DateTime", "2020-01-02 03:04:05")),
           "Array(DateTime): ['2020-01-02 00:00:00','2020-01-02 03:04:05']");
    EXPECT(CALL("array", 2, K("UInt64", "18446744073709551615"), U(0)),
           "Array(UInt64): [18446744073709551615,0]");
}

static void test_array_nested(void **state) {
    (void)state;
    /* [[1], [NULL]] and [[], [1]]: the empty array adds no Nullable. */
    exec_expr *one = CALL("array", 1, U(1)), *null = CALL("array", 1, NUL());
    EXPECT(CALL("array", 2, one, null), "Array(Array(Nullable(UInt8))): [[1],[NULL]]");
    EXPECT(CALL("array", 2, CALL("array", 0), CALL("array", 1, U(1))),
           "Array(Array(UInt8)): [[],[1]]");
    EXPECT(CALL("array", 2, CALL("array", 1, U(1)), CALL("array", 1, I(-300))),
           "Array(Array(Int16)): [[1],[-300]]");
}

static void test_array_columns(void **state) {
    (void)state;
    exec_expr *x = C("Nullable(UInt8)", "1", NULL, "3");
    EXPECT(CALL("array", 2, x, U(10)), "Array(Nullable(UInt8)): [1,10] | [NULL,10] | [3,10]");
    EXPECT(CALL("array", 2, x, I(-1)),
           "Array(Nullable(Int16)): [1,-1] | [NULL,-1] | [3,-1]");
}

static void test_array_errors(void **state) {
    (void)state;
    EXPECT_ERR(MU_ENO_COMMON_TYPE,
               "There is no supertype for types UInt8, String because some of them are "
               "String/FixedString and some of them are not",
               CALL_ERR("array", 2, U(1), S("a")));
    EXPECT_ERR(MU_ENO_COMMON_TYPE,
               "There is no supertype for types UInt64, Int8 because some of them are signed "
               "integers and some are unsigned integers, but there is no signed integer type, "
               "that can exactly represent all required unsigned integer values",
               CALL_ERR("array", 2, K("UInt64", "1"), I(-1)));
}

/* ---- arrayElement -------------------------------------------------- */

static void test_element_constant(void **state) {
    (void)state;
    exec_expr *a = K("Array(UInt8)", "[1,2,3]");
    EXPECT(CALL("arrayElement", 2, a, U(1)), "UInt8: 1");
    EXPECT(CALL("arrayElement", 2, a, I(-1)), "UInt8: 3");
    EXPECT(CALL("arrayElement", 2, a, U(5)), "UInt8: 0");
    EXPECT(CALL("arrayElement", 2, a, I(-4)), "UInt8: 0");
    /* A constant array with a constant 0 folds to the default, as ClickHouse. */
    EXPECT(CALL("arrayElement", 2, a, U(0)), "UInt8: 0");
    EXPECT(CALL("arrayElement", 2, K("Array(String)", "['a','b']"), U(3)), "String: ");
    EXPECT(CALL("arrayElement", 2, K("Array(Nullable(UInt8))", "[1,NULL]"), U(5)),
           "Nullable(UInt8): \\N");
    EXPECT(CALL("arrayElement", 2, K("Array(Nullable(UInt8))", "[1,NULL]"), U(2)),
           "Nullable(UInt8): \\N");
    EXPECT(CALL("arrayElement", 2, K("Array(Array(UInt8))", "[[1,2],[3]]"), U(2)),
           "Array(UInt8): [3]");
    EXPECT(CALL("arrayElement", 2, K("Array(Array(UInt8))", "[[1]]"), U(3)), "Array(UInt8): []");
    EXPECT(CALL("arrayElement", 2, K("Array(UInt8)", "[]"), U(1)), "UInt8: 0");
    EXPECT(CALL("arrayElement", 2, K("Array(Int64)", "[1,2]"), K("Int64",
           "-9223372036854775808")), "Int64: 0");
    EXPECT(CALL("arrayElement", 2, K("Array(LowCardinality(String))", "['x','y']"), U(2)),
           "String: y");
}

static void test_element_columns(void **state) {
    (void)state;
    exec_expr *a = C("Array(String)", "['a','b','c']", "[]", "['d']");
    exec_expr *i = C("Int32", "2", "1", "-1");
    EXPECT(CALL("arrayElement", 2, a, i), "String: b |  | d");
    EXPECT(CALL("arrayElement", 2, a, U(1)), "String: a |  | d");
    exec_expr *ni = C("Nullable(Int8)", "1", NULL, "5");
    EXPECT(CALL("arrayElement", 2, a, ni), "Nullable(String): a | \\N | ");
    EXPECT(CALL("arrayElementOrNull", 2, a, i), "Nullable(String): b | \\N | d");
    /* A column of arrays with a constant 0 is an error, as ClickHouse. */
    EXPECT_ERR(MU_EZERO_INDEX, "Array indices are 1-based",
               EVAL_ERR(CALL("arrayElement", 2, a, U(0))));
    EXPECT(CALL("arrayElement", 2, a, C("UInt8", "0", "0", "1")), "String:  |  | d");
}

static void test_element_nulls(void **state) {
    (void)state;
    EXPECT(CALL("arrayElement", 2, K("Array(UInt8)", "[1]"), NUL()), "Nullable(Nothing): \\N");
    EXPECT(CALL("arrayElement", 2, NUL(), U(1)), "Nullable(Nothing): \\N");
    EXPECT(CALL("arrayElement", 2, K("Array(UInt8)", "[7]"), K("Nullable(UInt8)", "1")),
           "Nullable(UInt8): 7");
    EXPECT(CALL("arrayElement", 2, K("Array(UInt8)", "[7]"), K("Nullable(UInt8)", "2")),
           "Nullable(UInt8): 0");
    EXPECT(CALL("arrayElementOrNull", 2, K("Array(Array(UInt8))", "[[1]]"), U(2)),
           "Array(UInt8): []");
    /* [][1]: an element of Nothing is NULL. */
    EXPECT(CALL("arrayElement", 2, CALL("array", 0), U(1)), "Nullable(Nothing): \\N");
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Illegal types of arguments: Map(Nothing, Nothing), String for "
               "function arrayElement", CALL_ERR("arrayElement", 2, CALL("map", 0), S("k")));
}

static void test_element_map(void **state) {
    (void)state;
    exec_expr *m = K("Map(String, UInt64)", "{'a':1,'b':2}");
    EXPECT(CALL("arrayElement", 2, m, S("b")), "UInt64: 2");
    EXPECT(CALL("arrayElement", 2, m, S("z")), "UInt64: 0");
    EXPECT(CALL("arrayElement", 2, K("Map(UInt8, String)", "{1:'x',2:'y'}"), U(2)), "String: y");
    EXPECT(CALL("arrayElement", 2, K("Map(String, Nullable(UInt8))", "{'a':NULL,'b':1}"), S("c")),
           "Nullable(UInt8): \\N");
    /* The index is cast to the key type, as ClickHouse (-1 is 255 as UInt8). */
    EXPECT(CALL("arrayElement", 2, K("Map(UInt8, String)", "{255:'max'}"), I(-1)), "String: max");
    exec_expr *mc = C("Map(LowCardinality(String), Array(UInt8))", "{'k':[1]}", "{}",
                      "{'j':[2],'k':[3]}");
    EXPECT(CALL("arrayElement", 2, mc, S("k")), "Array(UInt8): [1] | [] | [3]");
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Illegal types of arguments: Map(String, UInt64), UInt8 for "
               "function arrayElement", CALL_ERR("arrayElement", 2, m, U(1)));
}

static void test_element_errors(void **state) {
    (void)state;
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "Second argument for function 'arrayElement' must be integer, got 'Float64' "
               "instead",
               CALL_ERR("arrayElement", 2, K("Array(UInt8)", "[1]"), K("Float64", "1")));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "First argument for function 'arrayElement' must be array, got 'String' instead",
               CALL_ERR("arrayElement", 2, S("abc"), U(1)));
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS,
               "Number of arguments for function arrayElement doesn't match: passed 1, should be 2",
               CALL_ERR("arrayElement", 1, S("abc")));
}

/* ---- has, indexOf, countEqual, hasAll, hasAny ---------------------- */

static void test_search(void **state) {
    (void)state;
    exec_expr *n = K("Array(Nullable(UInt8))", "[1,2,NULL]");
    EXPECT(CALL("has", 2, n, NUL()), "UInt8: 1");
    EXPECT(CALL("has", 2, K("Array(UInt8)", "[1,2]"), NUL()), "UInt8: 0");
    EXPECT(CALL("has", 2, K("Array(Float64)", "[1.5,2]"), U(2)), "UInt8: 1");
    EXPECT(CALL("has", 2, K("Array(UInt64)", "[18446744073709551615]"), I(-1)), "UInt8: 0");
    EXPECT(CALL("has", 2, K("Array(Float64)", "[nan]"), K("Float64", "nan")), "UInt8: 0");
    exec_expr *s = K("Array(String)", "['a','b','b']");
    EXPECT(CALL("indexOf", 2, s, S("b")), "UInt64: 2");
    EXPECT(CALL("indexOf", 2, s, S("z")), "UInt64: 0");
    EXPECT(CALL("countEqual", 2, s, S("b")), "UInt64: 2");
    EXPECT(CALL("indexOf", 2, K("Array(Nullable(UInt8))", "[1,NULL,3]"), NUL()), "UInt64: 2");
    EXPECT(CALL("countEqual", 2, K("Array(Nullable(UInt8))", "[1,NULL,NULL]"), NUL()),
           "UInt64: 2");
    EXPECT(CALL("has", 2, K("Array(Date)", "['2020-01-01']"), K("Date", "2020-01-01")),
           "UInt8: 1");
    EXPECT(CALL("has", 2, K("Array(DateTime)", "['2020-01-01 00:00:00']"),
                K("Date", "2020-01-01")), "UInt8: 1");
    EXPECT(CALL("has", 2, K("Array(Array(UInt8))", "[[1,2],[3]]"), CALL("array", 1, U(3))),
           "UInt8: 1");
    EXPECT(CALL("has", 2, K("Array(Decimal(9, 1))", "[1.5]"), K("Decimal(18, 2)", "1.50")),
           "UInt8: 1");
    EXPECT(CALL("has", 2, K("Array(String)", "['b']"), K("FixedString(2)", "b")), "UInt8: 1");
    EXPECT(CALL("has", 2, K("Array(Enum8('a' = 1, 'b' = 2))", "['b']"), U(2)), "UInt8: 1");
    EXPECT(CALL("has", 2, CALL("array", 0), U(1)), "UInt8: 0");
    EXPECT(CALL("has", 2, K("Map(String, UInt8)", "{'k':1}"), S("k")), "UInt8: 1");
}

static void test_search_columns(void **state) {
    (void)state;
    exec_expr *a = C("Array(Nullable(String))", "['a',NULL]", "[]", "['c','c']");
    exec_expr *x = C("Nullable(String)", "c", NULL, "c");
    EXPECT(CALL("has", 2, a, x), "UInt8: 0 | 0 | 1");
    EXPECT(CALL("indexOf", 2, a, x), "UInt64: 0 | 0 | 1");
    EXPECT(CALL("countEqual", 2, a, x), "UInt64: 0 | 0 | 2");
    EXPECT(CALL("has", 2, a, NUL()), "UInt8: 1 | 0 | 0");
    EXPECT(CALL("indexOf", 2, K("Array(Int64)", "[5,-7]"), C("Int8", "-7", "5", "0")),
           "UInt64: 2 | 1 | 0");
}

static void test_search_errors(void **state) {
    (void)state;
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "Types of array and 2nd argument of function `has` must be identical up to "
               "nullability, cardinality, numeric types, or Enum and numeric type. Passed: "
               "Array(UInt8) and String.",
               CALL_ERR("has", 2, K("Array(UInt8)", "[1]"), S("a")));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "First argument for function indexOf must be an array. Actual UInt8",
               CALL_ERR("indexOf", 2, U(1), U(1)));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "First argument for function has must be an array, map or JSON. Actual String",
               CALL_ERR("has", 2, S("x"), U(1)));
}

static void test_has_all_any(void **state) {
    (void)state;
    EXPECT(CALL("hasAll", 2, K("Array(UInt8)", "[1,2,3]"), K("Array(UInt8)", "[1,2]")), "UInt8: 1");
    EXPECT(CALL("hasAll", 2, K("Array(UInt8)", "[1,2]"), K("Array(UInt8)", "[1,3]")), "UInt8: 0");
    EXPECT(CALL("hasAny", 2, K("Array(UInt8)", "[1,2]"), K("Array(UInt8)", "[3,2]")), "UInt8: 1");
    EXPECT(CALL("hasAny", 2, K("Array(UInt8)", "[1,2]"), CALL("array", 0)), "UInt8: 0");
    EXPECT(CALL("hasAll", 2, K("Array(UInt8)", "[1,2]"), CALL("array", 0)), "UInt8: 1");
    EXPECT(CALL("hasAll", 2, K("Array(Nullable(UInt8))", "[1,NULL]"),
                K("Array(Nullable(Nothing))", "[NULL]")), "UInt8: 1");
    EXPECT(CALL("hasAny", 2, K("Array(Float64)", "[1,2]"), K("Array(UInt8)", "[2]")), "UInt8: 1");
    EXPECT(CALL("hasAll", 2, K("Array(Array(UInt8))", "[[1]]"), K("Array(Array(UInt8))", "[[1]]")),
           "UInt8: 1");
    exec_expr *a = C("Array(String)", "['a','b']", "[]", "['c']");
    EXPECT(CALL("hasAny", 2, a, K("Array(String)", "['b','c']")), "UInt8: 1 | 0 | 1");
    EXPECT(CALL("hasAll", 2, a, K("Array(String)", "['a','b']")), "UInt8: 1 | 0 | 0");
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "Argument 1 for function hasAll must be an array but it has type UInt8.",
               CALL_ERR("hasAll", 2, K("Array(UInt8)", "[1]"), U(1)));
    EXPECT_ERR(MU_ENO_COMMON_TYPE,
               "There is no supertype for types UInt8, String because some of them are "
               "String/FixedString and some of them are not",
               CALL_ERR("hasAny", 2, K("Array(UInt8)", "[1]"), K("Array(String)", "['a']")));
}

/* ---- reshaping ----------------------------------------------------- */

static void test_concat_push_pop(void **state) {
    (void)state;
    EXPECT(CALL("arrayConcat", 3, K("Array(UInt8)", "[1,2]"), K("Array(Float64)", "[3.5]"),
                CALL("array", 0)), "Array(Float64): [1,2,3.5]");
    EXPECT(CALL("arrayConcat", 2, K("Array(UInt8)", "[1]"), CALL("array", 1, NUL())),
           "Array(Nullable(UInt8)): [1,NULL]");
    exec_expr *a = C("Array(String)", "['a']", "[]", "['b','c']");
    EXPECT(CALL("arrayConcat", 2, a, a), "Array(String): ['a','a'] | [] | ['b','c','b','c']");
    EXPECT(CALL("arrayPushBack", 2, K("Array(UInt8)", "[1]"), K("Float64", "2.5")),
           "Array(Float64): [1,2.5]");
    EXPECT(CALL("arrayPushFront", 2, K("Array(String)", "['a']"), S("b")),
           "Array(String): ['b','a']");
    EXPECT(CALL("arrayPushBack", 2, K("Array(UInt8)", "[1]"), NUL()),
           "Array(Nullable(UInt8)): [1,NULL]");
    EXPECT(CALL("arrayPushBack", 2, a, C("String", "x", "y", "z")),
           "Array(String): ['a','x'] | ['y'] | ['b','c','z']");
    EXPECT(CALL("arrayPopBack", 1, K("Array(UInt8)", "[1,2,3]")), "Array(UInt8): [1,2]");
    EXPECT(CALL("arrayPopFront", 1, K("Array(UInt8)", "[1,2,3]")), "Array(UInt8): [2,3]");
    EXPECT(CALL("arrayPopBack", 1, CALL("array", 0)), "Array(Nothing): []");
    EXPECT(CALL("arrayPopFront", 1, a), "Array(String): [] | [] | ['c']");
    EXPECT(CALL("arrayReverse", 1, a), "Array(String): ['a'] | [] | ['c','b']");
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS, "Function arrayConcat requires at least one argument.",
               CALL_ERR("arrayConcat", 0));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "Argument 1 for function arrayConcat must be an array but it has type String.",
               CALL_ERR("arrayConcat", 2, a, S("x")));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "First argument for function arrayPushBack must be an array but it has type UInt8.",
               CALL_ERR("arrayPushBack", 2, U(1), U(1)));
}

static void test_slice(void **state) {
    (void)state;
    exec_expr *a = K("Array(UInt8)", "[1,2,3,4,5]");
    EXPECT(CALL("arraySlice", 2, a, U(0)), "Array(UInt8): []");
    EXPECT(CALL("arraySlice", 2, a, I(-2)), "Array(UInt8): [4,5]");
    EXPECT(CALL("arraySlice", 3, a, U(2), I(-1)), "Array(UInt8): [2,3,4]");
    EXPECT(CALL("arraySlice", 3, a, I(-3), I(-1)), "Array(UInt8): [3,4]");
    EXPECT(CALL("arraySlice", 2, a, U(10)), "Array(UInt8): []");
    EXPECT(CALL("arraySlice", 3, K("Array(UInt8)", "[1,2,3]"), I(-5), U(3)), "Array(UInt8): [1]");
    EXPECT(CALL("arraySlice", 2, K("Array(UInt8)", "[1,2,3]"), I(-5)), "Array(UInt8): [1,2,3]");
    EXPECT(CALL("arraySlice", 3, K("Array(UInt8)", "[1,2,3]"), NUL(), U(2)), "Array(UInt8): [1,2]");
    EXPECT(CALL("arraySlice", 3, K("Array(UInt8)", "[1,2,3]"), U(2), NUL()), "Array(UInt8): [2,3]");
    EXPECT(CALL("arraySlice", 2, NUL(), U(1)), "Nullable(Nothing): \\N");
    /* The matrix ClickHouse prints for offsets x lengths over [1..6]. */
    exec_expr *six = K("Array(UInt8)", "[1,2,3,4,5,6]");
    exec_expr *o = C("Int8", "-7", "-7", "-7", "-5", "-5", "-1", "-1", "0", "1", "2", "2", "7");
    exec_expr *l = C("Int8", "-1", "1", "3", "-1", "1", "3", "-7", "3", "-1", "-1", "3", "3");
    EXPECT(CALL("arraySlice", 3, six, o, l),
           "Array(UInt8): [1,2,3,4,5] | [] | [1,2] | [2,3,4,5] | [2] | [6] | [] | [] | [1,2,3,4,5]"
           " | [2,3,4,5] | [2,3,4] | []");
    exec_expr *no = C("Nullable(Int8)", NULL, "2", NULL, "-1", "1", "1", "1", "1", "1", "1",
                      "1", "1");
    EXPECT(CALL("arraySlice", 2, six, no),
           "Array(UInt8): [1,2,3,4,5,6] | [2,3,4,5,6] | [1,2,3,4,5,6] | [6] | [1,2,3,4,5,6] | "
           "[1,2,3,4,5,6] | [1,2,3,4,5,6] | [1,2,3,4,5,6] | [1,2,3,4,5,6] | [1,2,3,4,5,6] | "
           "[1,2,3,4,5,6] | [1,2,3,4,5,6]");
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "Argument 1 for function arraySlice must be integer but it has type String.",
               CALL_ERR("arraySlice", 2, six, S("1")));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "First argument for function arraySlice must be an array but it has type UInt8.",
               CALL_ERR("arraySlice", 2, U(1), U(1)));
}

static void test_resize(void **state) {
    (void)state;
    exec_expr *a = K("Array(UInt8)", "[1,2,3]");
    EXPECT(CALL("arrayResize", 2, a, U(5)), "Array(UInt8): [1,2,3,0,0]");
    EXPECT(CALL("arrayResize", 2, a, I(-5)), "Array(UInt8): [0,0,1,2,3]");
    EXPECT(CALL("arrayResize", 2, a, U(2)), "Array(UInt8): [1,2]");
    EXPECT(CALL("arrayResize", 2, a, I(-2)), "Array(UInt8): [2,3]");
    EXPECT(CALL("arrayResize", 3, K("Array(String)", "['a']"), U(3), S("z")),
           "Array(String): ['a','z','z']");
    EXPECT(CALL("arrayResize", 3, a, U(4), NUL()), "Array(Nullable(UInt8)): [1,2,3,NULL]");
    EXPECT(CALL("arrayResize", 3, a, U(4), K("Float64", "0.5")), "Array(Float64): [1,2,3,0.5]");
    EXPECT(CALL("arrayResize", 2, K("Array(Nullable(UInt8))", "[1]"), U(2)),
           "Array(Nullable(UInt8)): [1,NULL]");
    EXPECT(CALL("arrayResize", 2, a, C("Int8", "0", "1", "-1")), "Array(UInt8): [] | [1] | [3]");
    EXPECT_ERR(MU_EARRAY_TOO_LARGE, "Too large array size: 1073741825, maximum: 1073741824",
               CALL_ERR("arrayResize", 2, a, U(1073741825)));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Function arrayResize cannot resize Array(Nothing)",
               CALL_ERR("arrayResize", 2, CALL("array", 0), U(1)));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "Argument 1 for function arrayResize must be integer but it has type Float64.",
               CALL_ERR("arrayResize", 2, a, K("Float64", "1")));
}

static void test_sort_distinct(void **state) {
    (void)state;
    exec_expr *f = K("Array(Nullable(Float64))", "[1,nan,2,NULL,3,nan,-4,NULL,inf,-inf]");
    EXPECT(CALL("arraySort", 1, f),
           "Array(Nullable(Float64)): [-inf,-4,1,2,3,inf,nan,nan,NULL,NULL]");
    EXPECT(CALL("arrayReverseSort", 1, f),
           "Array(Nullable(Float64)): [inf,3,2,1,-4,-inf,nan,nan,NULL,NULL]");
    exec_expr *s = C("Array(String)", "['b','a','c','a']", "[]", "['z']");
    EXPECT(CALL("arraySort", 1, s), "Array(String): ['a','a','b','c'] | [] | ['z']");
    EXPECT(CALL("arrayReverseSort", 1, s), "Array(String): ['c','b','a','a'] | [] | ['z']");
    EXPECT(CALL("arraySort", 1, K("Array(Array(UInt8))", "[[2],[1,2],[1]]")),
           "Array(Array(UInt8)): [[1],[1,2],[2]]");
    EXPECT(CALL("arrayDistinct", 1, K("Array(UInt8)", "[1,2,2,3,1]")), "Array(UInt8): [1,2,3]");
    EXPECT(CALL("arrayDistinct", 1, K("Array(Nullable(UInt8))", "[1,NULL,1,NULL,2]")),
           "Array(Nullable(UInt8)): [1,2]");
    EXPECT(CALL("arrayDistinct", 1, s), "Array(String): ['b','a','c'] | [] | ['z']");
    EXPECT(CALL("arrayUniq", 1, K("Array(UInt8)", "[1,2,2]")), "UInt64: 2");
    EXPECT(CALL("arrayUniq", 1, K("Array(Nullable(UInt8))", "[1,NULL,NULL]")), "UInt64: 2");
    EXPECT(CALL("arrayUniq", 2, K("Array(UInt8)", "[1,1,2]"), K("Array(UInt8)", "[1,1,3]")),
           "UInt64: 2");
    EXPECT(CALL("arrayUniq", 1, s), "UInt64: 3 | 0 | 1");
    EXPECT(CALL("arrayCompact", 1, K("Array(Nullable(UInt8))", "[1,1,NULL,NULL,2,1]")),
           "Array(Nullable(UInt8)): [1,NULL,2,1]");
    EXPECT(CALL("arrayCompact", 1, K("Array(Float64)", "[nan,nan,1]")), "Array(Float64): [nan,1]");
    EXPECT_ERR(MU_EARRAY_SIZES, "Lengths of all arrays passed to arrayUniq must be equal.",
               EVAL_ERR(CALL("arrayUniq", 2, s, K("Array(UInt8)", "[1]"))));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "The 1st and only argument for function arraySort must be array. Found UInt8 "
               "instead",
               CALL_ERR("arraySort", 1, U(1)));
    /* More arguments are the lambda form's (FunctionArrayMapped). */
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "First argument for function arraySort must be a function. Actual Array(String)",
               CALL_ERR("arraySort", 2, s, s));
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS, "Function arrayMin needs at least 1 argument, passed 0",
               CALL_ERR("arrayMin", 0));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "All arguments for function arrayUniq must be arrays but argument 2 has type UInt8.",
               CALL_ERR("arrayUniq", 2, s, U(1)));
}

static void test_flatten_enumerate(void **state) {
    (void)state;
    EXPECT(CALL("arrayFlatten", 1, K("Array(Array(UInt8))", "[[1,2],[3]]")),
           "Array(UInt8): [1,2,3]");
    EXPECT(CALL("flatten", 1, K("Array(Array(Array(UInt8)))", "[[[1]],[],[[2,3],[]]]")),
           "Array(UInt8): [1,2,3]");
    EXPECT(CALL("arrayFlatten", 1, K("Array(UInt8)", "[1]")), "Array(UInt8): [1]");
    exec_expr *n = C("Array(Array(String))", "[['a'],['b','c']]", "[]", "[[],['d']]");
    EXPECT(CALL("arrayFlatten", 1, n), "Array(String): ['a','b','c'] | [] | ['d']");
    EXPECT(CALL("arrayEnumerate", 1, n), "Array(UInt32): [1,2] | [] | [1,2]");
    EXPECT(CALL("emptyArrayToSingle", 1, n), "Array(Array(String)): [['a'],['b','c']] | [[]] | "
           "[[],['d']]");
    EXPECT(CALL("emptyArrayToSingle", 1, CALL("emptyArrayUInt8", 0)), "Array(UInt8): [0]");
    EXPECT(CALL("emptyArrayString", 0), "Array(String): []");
    EXPECT_ERR(MU_ENOT_SUPPORTED, "Serialization is not implemented for data type Nothing",
               CALL_ERR("emptyArrayToSingle", 1, CALL("array", 0)));
    EXPECT(CALL("emptyArrayDateTime", 0), "Array(DateTime): []");
}

/* ---- arrayStringConcat, range, aggregates -------------------------- */

static void test_string_concat(void **state) {
    (void)state;
    EXPECT(CALL("arrayStringConcat", 2, K("Array(String)", "['a','b']"), S("-")), "String: a-b");
    EXPECT(CALL("arrayStringConcat", 1, K("Array(String)", "['a','b']")), "String: ab");
    EXPECT(CALL("arrayStringConcat", 2, K("Array(UInt8)", "[1,2,3]"), S(",")), "String: 1,2,3");
    EXPECT(CALL("arrayStringConcat", 2, K("Array(Array(UInt8))", "[[1],[2]]"), S(";")),
           "String: [1];[2]");
    EXPECT(CALL("arrayStringConcat", 2, K("Array(Nullable(String))", "['a',NULL,'b']"), S("-")),
           "String: a-b");
    EXPECT(CALL("arrayStringConcat", 1, K("Array(Float64)", "[0.1,1e20]")),
           "String: 0.1100000000000000000000");
    EXPECT(CALL("arrayStringConcat", 2, C("Array(String)", "['x']", "[]"), S(",")), "String: x | ");
    EXPECT_ERR(MU_EILLEGAL_COLUMN,
               "Illegal type of argument #2 'separator' of function arrayStringConcat, expected "
               "const String, got String",
               CALL_ERR("arrayStringConcat", 2, C("Array(String)", "['x']"), C("String", ",")));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "Illegal type of argument #1 'arr' of function arrayStringConcat, expected Array, "
               "got String",
               CALL_ERR("arrayStringConcat", 1, S("x")));
}

static void test_range(void **state) {
    (void)state;
    EXPECT(CALL("range", 1, U(0)), "Array(UInt8): []");
    EXPECT(CALL("range", 1, U(5)), "Array(UInt8): [0,1,2,3,4]");
    EXPECT(CALL("range", 1, K("UInt64", "3")), "Array(UInt64): [0,1,2]");
    EXPECT(CALL("range", 2, U(2), U(5)), "Array(UInt8): [2,3,4]");
    EXPECT(CALL("range", 3, U(10), U(0), I(-3)), "Array(Int16): [10,7,4,1]");
    EXPECT(CALL("range", 3, I(-3), U(3), U(2)), "Array(Int16): [-3,-1,1]");
    EXPECT(CALL("range", 1, C("UInt32", "1", "0", "3")), "Array(UInt32): [0] | [] | [0,1,2]");
    EXPECT(CALL("range", 1, NUL()), "Nullable(Nothing): \\N");
    EXPECT_ERR(MU_EOUT_OF_BOUND,
               "A call to function range overflows, the 3rd argument step can't be zero",
               CALL_ERR("range", 3, U(1), U(5), U(0)));
    EXPECT_ERR(MU_EOUT_OF_BOUND,
               "A call to function range overflows, only support positive values when only end "
               "is provided",
               CALL_ERR("range", 1, I(-1)));
    EXPECT_ERR(MU_EOUT_OF_BOUND,
               "A call to function range would produce 1000000000 array elements, which is "
               "greater than the allowed maximum of 500000000",
               CALL_ERR("range", 1, U(1000000000)));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Illegal type Float64 of argument of function range",
               CALL_ERR("range", 1, K("Float64", "1")));
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS, "Function range needs 1..3 arguments; passed 0.",
               CALL_ERR("range", 0));
    EXPECT_ERR(MU_EINVAL,
               "Illegal (null) value column Nullable(UInt8) of argument of function range",
               EVAL_ERR(CALL("range", 1, C("Nullable(UInt8)", "1", NULL))));
}

static void test_aggregates(void **state) {
    (void)state;
    EXPECT(CALL("arraySum", 1, K("Array(UInt8)", "[1,2,3]")), "UInt64: 6");
    EXPECT(CALL("arraySum", 1, K("Array(Int8)", "[-1,2]")), "Int64: 1");
    EXPECT(CALL("arraySum", 1, K("Array(Float32)", "[0.5,0.25]")), "Float64: 0.75");
    EXPECT(CALL("arraySum", 1, K("Array(UInt64)", "[18446744073709551615,2]")), "UInt64: 1");
    EXPECT(CALL("arraySum", 1, K("Array(Decimal(9, 2))", "[1.25,2.5]")),
           "Decimal(38, 2): 3.75");
    EXPECT(CALL("arraySum", 1, K("Array(UInt8)", "[]")), "UInt64: 0");
    EXPECT(CALL("arrayAvg", 1, K("Array(UInt8)", "[1,2,3,4]")), "Float64: 2.5");
    EXPECT(CALL("arrayAvg", 1, K("Array(Decimal(9, 2))", "[0.01,0.02]")), "Float64: 0.01");
    EXPECT(CALL("arrayProduct", 1, K("Array(Int8)", "[1,-2,3]")), "Float64: -6");
    EXPECT(CALL("arrayProduct", 1, K("Array(Decimal(9, 1))", "[1.5,2]")), "Float64: 3");
    exec_expr *c = C("Array(Int32)", "[3,1,2]", "[]", "[-5]");
    EXPECT(CALL("arraySum", 1, c), "Int64: 6 | 0 | -5");
    EXPECT(CALL("arrayMin", 1, c), "Int32: 1 | 0 | -5");
    EXPECT(CALL("arrayMax", 1, c), "Int32: 3 | 0 | -5");
    EXPECT(CALL("arrayAvg", 1, c), "Float64: 2 | 0 | -5");
    EXPECT(CALL("arrayMin", 1, K("Array(String)", "['b','a']")), "String: a");
    EXPECT(CALL("arrayMax", 1, K("Array(Nullable(UInt8))", "[1,NULL,5]")), "Nullable(UInt8): 5");
    EXPECT(CALL("arrayMin", 1, K("Array(Nullable(UInt8))", "[NULL,7]")), "Nullable(UInt8): 7");
    EXPECT(CALL("arrayMin", 1, K("Array(Nullable(UInt8))", "[]")), "Nullable(UInt8): \\N");
    EXPECT(CALL("arrayMax", 1, K("Array(Float64)", "[nan,1]")), "Float64: 1");
    EXPECT(CALL("arrayMin", 1, K("Array(Float64)", "[nan,1]")), "Float64: 1");
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "array aggregation function cannot be performed on type Nullable(UInt8)",
               CALL_ERR("arraySum", 1, K("Array(Nullable(UInt8))", "[1]")));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "array aggregation function cannot be performed on type String",
               CALL_ERR("arrayAvg", 1, K("Array(String)", "['a']")));
    EXPECT_ERR(MU_EDECIMAL_OVERFLOW, "Decimal math overflow",
               CALL_ERR("arrayProduct", 1, K("Array(Decimal(38, 0))",
                        "[10000000000000000000000000000000000000,100]")));
}

/* ---- columns of nested and Nullable elements ----------------------- */

static void test_columns_mixed(void **state) {
    (void)state;
    exec_expr *a = C("Array(Nullable(String))", "['b',NULL,'a','b']", "[]", "[NULL]");
    EXPECT(CALL("arraySort", 1, a), "Array(Nullable(String)): ['a','b','b',NULL] | [] | [NULL]");
    EXPECT(CALL("arrayDistinct", 1, a), "Array(Nullable(String)): ['b','a'] | [] | []");
    EXPECT(CALL("arrayReverseSort", 1, a),
           "Array(Nullable(String)): ['b','b','a',NULL] | [] | [NULL]");
    EXPECT(CALL("arrayPushFront", 2, a, S("z")),
           "Array(Nullable(String)): ['z','b',NULL,'a','b'] | ['z'] | ['z',NULL]");
    EXPECT(CALL("arrayElement", 2, K("Array(UInt8)", "[10,20,30]"), C("Int8", "1", "-1", "0")),
           "UInt8: 10 | 30 | 0");
    EXPECT(CALL("range", 2, C("UInt8", "1", "5", "3"), U(4)), "Array(UInt8): [1,2,3] | [] | [3]");
}

static void test_nested_elements(void **state) {
    (void)state;
    EXPECT(CALL("arrayDistinct", 1, K("Array(Array(UInt8))", "[[1],[1],[2],[]]")),
           "Array(Array(UInt8)): [[1],[2],[]]");
    EXPECT(CALL("has", 2, K("Array(Array(Nullable(UInt8)))", "[[1,NULL],[2]]"),
                CALL("array", 2, U(1), NUL())), "UInt8: 1");
    exec_expr *a = C("Array(Nullable(UInt8))", "[1,NULL]", "[]");
    EXPECT(CALL("arrayConcat", 2, a, K("Array(Int16)", "[-1]")),
           "Array(Nullable(Int16)): [1,NULL,-1] | [-1]");
    EXPECT(CALL("arrayUniq", 1, K("Array(Array(String))", "[['a'],['a'],['b']]")), "UInt64: 2");
    EXPECT(CALL("arrayCompact", 1, K("Array(Array(UInt8))", "[[1],[1],[]]")),
           "Array(Array(UInt8)): [[1],[]]");
    EXPECT(CALL("arraySum", 1, K("Array(Decimal(18, 3))", "[1.5,2]")), "Decimal(38, 3): 3.5");
}

/* ---- arrayCumSum, arrayCumSumNonNegative, arrayDifference ---------- */

static void test_running(void **state) {
    (void)state;
    EXPECT(CALL("arrayCumSum", 1, K("Array(UInt8)", "[1,2,3]")), "Array(UInt64): [1,3,6]");
    EXPECT(CALL("arrayCumSum", 1, K("Array(Int8)", "[-1,2,-5]")), "Array(Int64): [-1,1,-4]");
    EXPECT(CALL("arrayCumSum", 1, K("Array(Float32)", "[1.5,2.25]")), "Array(Float64): [1.5,3.75]");
    EXPECT(CALL("arrayCumSum", 1, K("Array(Bool)", "[true,true]")), "Array(UInt64): [1,2]");
    EXPECT(CALL("arrayCumSum", 1, K("Array(Decimal(9, 2))", "[1.5,-0.25]")),
           "Array(Decimal(38, 2)): [1.5,1.25]");
    /* 64-bit sums wrap around, as ClickHouse's. */
    EXPECT(CALL("arrayCumSum", 1, K("Array(UInt64)", "[18446744073709551615,2]")),
           "Array(UInt64): [18446744073709551615,1]");
    EXPECT(CALL("arrayCumSumNonNegative", 1, K("Array(Int8)", "[1,1,-4,1]")),
           "Array(Int64): [1,2,0,1]");
    EXPECT(CALL("arrayCumSumNonNegative", 1, K("Array(Float64)", "[-1.5,2]")),
           "Array(Float64): [0,2]");
    EXPECT(CALL("arrayCumSumNonNegative", 1, K("Array(Decimal(9, 1))", "[-1.5,2]")),
           "Array(Decimal(38, 1)): [0,2]");
    EXPECT(CALL("arrayDifference", 1, K("Array(UInt8)", "[1,255,0]")),
           "Array(Int16): [0,254,-255]");
    EXPECT(CALL("arrayDifference", 1, K("Array(Float64)", "[1,2,3,0,10.1]")),
           "Array(Float64): [0,1,1,-3,10.1]");
    EXPECT(CALL("arrayDifference", 1, K("Array(UInt64)", "[0,18446744073709551615]")),
           "Array(Int64): [0,-1]");
    EXPECT(CALL("arrayDifference", 1, K("Array(Date)", "['2020-01-01','2020-01-05']")),
           "Array(Int32): [0,4]");
    EXPECT(CALL("arrayDifference", 1, K("Array(Decimal(9, 2))", "[1.5,0.25]")),
           "Array(Decimal(9, 2)): [0,-1.25]");
    EXPECT(CALL("arrayDifference", 1,
                K("Array(DateTime64(3))", "['2020-01-01 00:00:00','2020-01-01 00:00:01.5']")),
           "Array(Decimal(18, 3)): [0,1.5]");
    exec_expr *a = C("Array(Int32)", "[5,3]", "[]", "[7]");
    EXPECT(CALL("arrayCumSum", 1, a), "Array(Int64): [5,8] | [] | [7]");
    EXPECT(CALL("arrayDifference", 1, a), "Array(Int64): [0,-2] | [] | [0]");
    EXPECT_ERR(MU_EDECIMAL_OVERFLOW, "Decimal math overflow",
               CALL_ERR("arrayDifference", 1,
                        K("Array(Decimal(38, 0))", "[-99999999999999999999999999999999999999,"
                                                   "99999999999999999999999999999999999999]")));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "arrayCumSum cannot add values of type String",
               CALL_ERR("arrayCumSum", 1, K("Array(String)", "['a']")));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "arrayCumSum cannot add values of type Nothing",
               CALL_ERR("arrayCumSum", 1, CALL("array", 0)));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "arrayDifference cannot process values of type Nullable(UInt8)",
               CALL_ERR("arrayDifference", 1, K("Array(Nullable(UInt8))", "[1]")));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "The 1st and only argument for function arrayCumSumNonNegative must be array. "
               "Found UInt8 instead",
               CALL_ERR("arrayCumSumNonNegative", 1, U(1)));
}

/* ---- arrayCount, arrayExists, arrayAll without a lambda ------------ */

static void test_count_exists_all(void **state) {
    (void)state;
    exec_expr *a = C("Array(UInt8)", "[1,0,1]", "[]", "[0]");
    EXPECT(CALL("arrayCount", 1, a), "UInt32: 2 | 0 | 0");
    EXPECT(CALL("arrayExists", 1, a), "UInt8: 1 | 0 | 0");
    EXPECT(CALL("arrayAll", 1, a), "UInt8: 0 | 1 | 0");
    EXPECT(CALL("arrayCount", 1, K("Array(Bool)", "[true,false]")), "UInt32: 1");
    EXPECT_ERR(MU_EILLEGAL_TYPE, "The 1st and only argument for function arrayCount must be "
               "array of UInt8. Found Array(String) instead",
               CALL_ERR("arrayCount", 1, K("Array(String)", "['a']")));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "The 1st and only argument for function arrayAll must be array. "
               "Found UInt8 instead", CALL_ERR("arrayAll", 1, U(1)));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "First argument for function arrayExists must be a function. "
               "Actual Array(UInt8)", CALL_ERR("arrayExists", 2, a, a));
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS, "Function arrayCount needs at least 1 argument, passed 0",
               CALL_ERR("arrayCount", 0));
    /* The lambda-only functions. */
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS, "Function arrayMap needs at least 2 arguments, passed 1",
               CALL_ERR("arrayMap", 1, a));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "First argument for function arrayFilter must be a function. "
               "Actual UInt8", CALL_ERR("arrayFilter", 2, U(1), a));
}

/* ---- Map ----------------------------------------------------------- */

static void test_map(void **state) {
    (void)state;
    exec_expr *m = CALL("map", 4, S("a"), U(1), S("b"), U(2));
    EXPECT(m, "Map(String, UInt8): {'a':1,'b':2}");
    EXPECT(CALL("mapKeys", 1, m), "Array(String): ['a','b']");
    EXPECT(CALL("mapValues", 1, m), "Array(UInt8): [1,2]");
    EXPECT(CALL("mapContains", 2, m, S("b")), "UInt8: 1");
    EXPECT(CALL("mapContains", 2, m, S("c")), "UInt8: 0");
    EXPECT(CALL("map", 0), "Map(Nothing, Nothing): {}");
    EXPECT(CALL("map", 4, U(1), U(2), U(300), K("Float64", "3.5")),
           "Map(UInt16, Float64): {1:2,300:3.5}");
    EXPECT(CALL("map", 2, S("a"), NUL()), "Map(String, Nullable(Nothing)): {'a':NULL}");
    exec_expr *k = C("String", "x", "y"), *v = C("Nullable(Int8)", "-1", NULL);
    exec_expr *mc = CALL("map", 2, k, v);
    EXPECT(mc, "Map(String, Nullable(Int8)): {'x':-1} | {'y':NULL}");
    EXPECT(CALL("arrayElement", 2, mc, S("y")), "Nullable(Int8): \\N | \\N");
    EXPECT(CALL("arrayElement", 2, mc, k), "Nullable(Int8): -1 | \\N");
    EXPECT(CALL("mapKeys", 1, mc), "Array(String): ['x'] | ['y']");
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS,
               "Function map requires even number of arguments, but 3 given",
               CALL_ERR("map", 3, U(1), U(2), U(3)));
    EXPECT_ERR(MU_EINVAL, "Map cannot have a key of type Nullable(Nothing)",
               CALL_ERR("map", 2, NUL(), U(1)));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Function mapKeys requires at least one argument of type Map",
               CALL_ERR("mapKeys", 1, U(1)));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Function mapContains requires at least one argument of type Map",
               CALL_ERR("mapContains", 2, K("Array(UInt8)", "[1]"), U(1)));
}

static void test_map_concat(void **state) {
    (void)state;
    exec_expr *m1 = CALL("map", 4, S("key1"), U(1), S("key3"), U(3));
    exec_expr *m2 = CALL("map", 2, S("key2"), U(2));
    EXPECT(CALL("mapConcat", 2, m1, m2), "Map(String, UInt8): {'key1':1,'key3':3,'key2':2}");
    /* A repeated key stays; m[key] finds the first. */
    exec_expr *dup = CALL("mapConcat", 2, m1, CALL("map", 2, S("key1"), U(300)));
    EXPECT(dup, "Map(String, UInt16): {'key1':1,'key3':3,'key1':300}");
    EXPECT(CALL("arrayElement", 2, dup, S("key1")), "UInt16: 1");
    EXPECT(CALL("mapConcat", 2, CALL("map", 0), m2), "Map(String, UInt8): {'key2':2}");
    EXPECT(CALL("mapConcat", 1, m2), "Map(String, UInt8): {'key2':2}");
    /* concat of maps is mapConcat. */
    EXPECT(CALL("concat", 2, m2, m2), "Map(String, UInt8): {'key2':2,'key2':2}");
    exec_expr *k = C("String", "x", "y"), *v = C("Nullable(Int8)", "-1", NULL);
    EXPECT(CALL("mapConcat", 2, CALL("map", 2, k, v), m2),
           "Map(String, Nullable(Int16)): {'x':-1,'key2':2} | {'y':NULL,'key2':2}");
    EXPECT_ERR(MU_ENUMBER_OF_ARGUMENTS, "Function mapConcat requires at least one argument",
               CALL_ERR("mapConcat", 0));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Function mapConcat requires at least one argument of type Map",
               CALL_ERR("mapConcat", 1, U(1)));
    EXPECT_ERR(MU_EILLEGAL_TYPE,
               "Argument 1 for function arrayConcat must be an array but it has type UInt8.",
               CALL_ERR("mapConcat", 2, m2, U(1)));
    EXPECT_ERR(MU_ENO_COMMON_TYPE,
               "There is no supertype for types String, UInt8 because some of them are "
               "String/FixedString and some of them are not",
               CALL_ERR("mapConcat", 2, m2, CALL("map", 2, U(1), U(1))));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_array_literals, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_array_nested, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_array_columns, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_array_errors, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_element_constant, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_element_columns, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_element_nulls, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_element_map, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_element_errors, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_search, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_search_columns, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_search_errors, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_has_all_any, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_concat_push_pop, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_slice, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_resize, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_sort_distinct, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_flatten_enumerate, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_string_concat, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_range, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_aggregates, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_columns_mixed, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_nested_elements, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_running, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_count_exists_all, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_map, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_map_concat, et_setup, et_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
