/* json_test.c: goal: the JSON functions give ClickHouse's results for the
 * documented examples and for every kind of value: keys, 1-based and
 * negative indexes (also over objects), escapes and surrogate pairs, the
 * number classes (Int64, UInt64, Double) and their conversions, strings
 * holding numbers, compact raw output; any invalid document (bad grammar,
 * bad UTF-8, control characters, lone surrogates, infinite numbers, too
 * deep) gives the default value and never an error; bad argument types
 * fail at bind with ClickHouse's wording. JSONExtract converts into every
 * supported type as ClickHouse's JSONExtractTree does (defaults for
 * elements that do not convert, NULL only into Nullable).
 */
#define ET_STYLE_CALL_SPEC
#include "exec_test_util.h"

static const char doc[] = "{\"a\": \"hello\", \"b\": [-100, 200.0, 300]}";

static void test_documented_examples(void **state) {
    (void)state;
    EQ("1", q("JSONHas", "ss", doc, "b"));
    EQ("UInt8", et.type_name);
    EQ("0", q("JSONHas", "ssi", doc, "b", I(4)));
    EQ("0", q("JSONHas", "si", doc, I(0)));
    EQ("1", q("JSONHas", "si", doc, I(1)));
    EQ("1", q("JSONHas", "si", doc, I(2)));
    EQ("1", q("JSONHas", "si", doc, I(-1)));
    EQ("1", q("JSONHas", "si", doc, I(-2)));
    EQ("0", q("JSONHas", "si", doc, I(3)));
    EQ("1", q("JSONHas", "s", doc));
    EQ("hello", q("JSONExtractString", "si", doc, I(1)));
    EQ("3", q("JSONLength", "ss", doc, "b"));
    EQ("UInt64", et.type_name);
    EQ("2", q("JSONLength", "s", doc));
    EQ("Object", q("JSONType", "s", doc));
    EQ("Enum8('Null' = 0, 'String' = 34, 'Array' = 91, 'Bool' = 98, 'Double' = 100, "
       "'Int64' = 105, 'UInt64' = 117, 'Object' = 123)", et.type_name);
    EQ("String", q("JSONType", "ss", doc, "a"));
    EQ("Array", q("JSONType", "ss", doc, "b"));
    EQ("-100", q("JSONExtractInt", "ssi", doc, "b", I(1)));
    EQ("Int64", et.type_name);
    EQ("200", q("JSONExtractFloat", "ssi", doc, "b", I(2)));
    EQ("Float64", et.type_name);
    EQ("300", q("JSONExtractUInt", "ssi", doc, "b", I(-1)));
    EQ("UInt64", et.type_name);
    EQ("[-100,200,300]", q("JSONExtractRaw", "ss", doc, "b"));
    EQ("['a','b']", q("JSONExtractKeys", "s", doc));
    EQ("Array(String)", et.type_name);
    EQ("['-100','200','300']", q("JSONExtractArrayRaw", "ss", doc, "b"));
    HEX("0A00", q("JSONExtractString", "ss", "{\"a\": \"\\n\\u0000\"}", "a"));
    EQ("☺", q("JSONExtractString", "ss", "{\"a\": \"\\u263a\"}", "a"));
    EQ("", q("JSONExtractString", "ss", "{\"a\": \"\\u263\"}", "a"));
    EQ("", q("JSONExtractString", "ss", "{\"a\": \"hello}", "a"));
}

static void test_paths(void **state) {
    (void)state;
    static const char nested[] = "{\"x\": {\"y\": [10, {\"z\": true}]}, \"x\": 5}";
    EQ("10", q("JSONExtractInt", "sssi", nested, "x", "y", I(1)));
    EQ("1", q("JSONExtractBool", "sssis", nested, "x", "y", I(2), "z"));
    EQ("1", q("JSONExtractBool", "sssis", nested, "x", "y", I(-1), "z"));
    EQ("0", q("JSONHas", "ssss", nested, "x", "y", "z")); /* y is an array */
    EQ("{\"y\":[10,{\"z\":true}]}", q("JSONExtractRaw", "ss", nested, "x")); /* the first x */
    EQ("5", q("JSONExtractRaw", "si", nested, I(-1))); /* an index picks an object member */
    EQ("1", q("JSONHas", "ss", "{\"a\\u0062\": 1}", "ab")); /* keys compare unescaped */
    EQ("0", q("JSONHas", "ss", "{\"a\": 1}", "A"));
    EQ("0", q("JSONHas", "ssi", "[1, 2]", "a", I(1)));
    EQ("2", q("JSONExtractInt", "si", "[1, 2]", I(4294967298LL))); /* indexes pass through int */
    EQ("1|2|0", q("JSONExtractInt", "sc", "{\"a\":1,\"b\":2}", "String", "a|b|c"));
    EQ("1|2|0", q("JSONExtractInt", "sc", "[1,2]", "Int8", "1|-1|3"));
    EQ("ERR EILLEGAL_TYPE: The argument 2 of function JSONHas should be a string specifying key or "
       "an integer specifying index, illegal type: Float64", q("JSONHas", "sf", "{}", 1.0));
    EQ("ERR EILLEGAL_TYPE: The first argument of function JSONExtractInt should be a string "
       "containing JSON or a JSON object, illegal type: FixedString(2)",
       q("JSONExtractInt", "k", "FixedString(2)", "{}"));
    EQ("ERR ENUMBER_OF_ARGUMENTS: Function JSONLength requires at least one argument",
       q("JSONLength", ""));
}

static void test_numbers(void **state) {
    (void)state;
    EQ("Int64", q("JSONType", "s", "1"));
    EQ("Int64", q("JSONType", "s", "-9223372036854775808"));
    EQ("UInt64", q("JSONType", "s", "9223372036854775808"));
    EQ("Double", q("JSONType", "s", "18446744073709551616"));
    EQ("Double", q("JSONType", "s", "1.0"));
    EQ("Double", q("JSONType", "s", "1e2"));
    EQ("-9223372036854775808", q("JSONExtractInt", "s", "-9223372036854775808"));
    EQ("0", q("JSONExtractInt", "s", "9223372036854775808"));   /* UInt64 out of Int64 */
    EQ("9223372036854775808", q("JSONExtractUInt", "s", "9223372036854775808"));
    EQ("0", q("JSONExtractUInt", "s", "-1"));
    EQ("1", q("JSONExtractInt", "s", "1.9"));                   /* doubles truncate */
    EQ("-1", q("JSONExtractInt", "s", "-1.9"));
    EQ("0", q("JSONExtractUInt", "s", "-0.5"));
    EQ("0", q("JSONExtractInt", "s", "1e19"));
    EQ("100", q("JSONExtractUInt", "s", "1e2"));
    EQ("1.5", q("JSONExtractFloat", "s", "1.5"));
    EQ("18446744073709552000", q("JSONExtractFloat", "s", "18446744073709551615"));
    EQ("0", q("JSONExtractInt", "s", "true"));                  /* bools are not numbers */
    EQ("0", q("JSONExtractFloat", "s", "null"));
    EQ("123", q("JSONExtractInt", "s", "\"123\""));             /* numbers inside strings */
    EQ("-5", q("JSONExtractInt", "s", "\"-5\""));
    EQ("12", q("JSONExtractInt", "s", "\"12.7\""));
    EQ("0", q("JSONExtractInt", "s", "\"12a\""));
    EQ("0", q("JSONExtractUInt", "s", "\"-1\""));
    EQ("2.5", q("JSONExtractFloat", "s", "\"2.5\""));
    EQ("0", q("JSONExtractFloat", "s", "\" 2.5\""));
    EQ("1", q("JSONExtractBool", "s", "true"));
    EQ("0", q("JSONExtractBool", "s", "false"));
    EQ("1", q("JSONExtractBool", "s", "2"));
    EQ("0", q("JSONExtractBool", "s", "0"));
    EQ("0", q("JSONExtractBool", "s", "1.5"));
    EQ("0", q("JSONExtractBool", "s", "\"true\""));
    EQ("Double|Int64|Bool|Null|String|Array|Object",
       q("JSONType", "c", "String", "1.5|-3|false|null|\"s\"|[]|{}"));
}

static void test_strings_and_raw(void **state) {
    (void)state;
    EQ("abc", q("JSONExtractString", "s", "\"abc\""));
    EQ("1", q("JSONExtractString", "ss", "{\"a\": 1}", "a")); /* non-strings come out raw */
    EQ("[1,\"x\"]", q("JSONExtractString", "ss", "{\"a\": [1, \"x\"]}", "a"));
    EQ("", q("JSONExtractString", "ss", "{\"a\": null}", "a"));
    EQ("😀", q("JSONExtractString", "s", "\"\\ud83d\\ude00\""));
    EQ("é/", q("JSONExtractString", "s", "\"\\u00e9\\/\""));
    EQ("\"a\\\"b\\\\c\\n\\u001F/é\"",
       q("JSONExtractRaw", "s", "\"a\\\"b\\\\c\\n\\u001f\\/\\u00e9\""));
    EQ("\"\\u2028\"", q("JSONExtractRaw", "s", "\"\\u2028\""));
    EQ("{\"a\":[1,2.5,true,null,{}],\"b\":\"x\"}",
       q("JSONExtractRaw", "s", " { \"a\" : [ 1 , 2.50 , true , null , { } ] , \"b\" : \"x\" } "));
    EQ("100", q("JSONExtractRaw", "s", "1e2"));
    EQ("0.001", q("JSONExtractRaw", "s", "1E-3"));
    EQ("1e21", q("JSONExtractRaw", "s", "1e21"));
    EQ("-0", q("JSONExtractRaw", "s", "-0.0"));
    EQ("18446744073709551615", q("JSONExtractRaw", "s", "18446744073709551615"));
    EQ("", q("JSONExtractRaw", "ss", "{}", "a"));
    EQ("['a','a','b\\'c']", q("JSONExtractKeys", "s", "{\"a\":1,\"a\":2,\"b'c\":3}"));
    EQ("[]", q("JSONExtractKeys", "s", "[1]"));
    EQ("[]", q("JSONExtractArrayRaw", "s", "{}"));
    EQ("['[]','{\"a\":1}']", q("JSONExtractArrayRaw", "s", "[[], {\"a\" : 1}]"));
    /* An Array result cannot be Nullable: a NULL document gives []. */
    EQ("[]|['1']|[]", q("JSONExtractArrayRaw", "c", "Nullable(String)", "[]|[1]|\\N"));
}

static void test_invalid_documents(void **state) {
    (void)state;
    static const char *bad[] = {
        "", " ", "{", "}", "[1,]", "{\"a\":}", "{\"a\" 1}", "{a:1}", "[1 2]", "01", "1.", ".5",
        "+1", "-", "1e", "tru", "nul", "[1]]", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"",
        "\"\\udc00\"", "\"\\ud800\\u0041\"", "1e400", "-1e999", "NaN", "[1] x", "'a'",
        "{\"a\":1,}",
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(bad); i++) {
        EQ("0", q("isValidJSON", "s", bad[i]));
        EQ("0", q("JSONHas", "s", bad[i]));
        EQ("Null", q("JSONType", "s", bad[i]));
        EQ("", q("JSONExtractRaw", "s", bad[i]));
    }
    EQ("0", q("isValidJSON", "s", "\"a\tb\""));             /* raw control character */
    EQ("0", q("isValidJSON", "s", "\"\xFF\""));             /* invalid UTF-8 */
    EQ("0", q("isValidJSON", "s", "\"\xED\xA0\x80\""));     /* a surrogate in UTF-8 */
    EQ("0", q("isValidJSON", "b", "[1]\0", (size_t)4));
    EQ("1", q("isValidJSON", "s", " [ ] "));
    EQ("1", q("isValidJSON", "s", "\"\\ud83d\\ude00\""));
    EQ("1", q("isValidJSON", "s", "-0.5e+10"));
    char deep[2 * 1025 + 1];
    memset(deep, '[', 1025);
    memset(deep + 1025, ']', 1025);
    deep[2050] = 0;
    EQ("0", q("isValidJSON", "s", deep));
    deep[2049] = 0;
    EQ("1", q("isValidJSON", "s", deep + 1)); /* 1024 levels are fine */
    EQ("0|1|\\N", q("JSONHas", "cs", "Nullable(String)", "{|{\"k\":0}|\\N", "k"));
    EQ("Nullable(UInt8)", et.type_name);
    EQ("ERR ENUMBER_OF_ARGUMENTS: Function isValidJSON needs exactly one argument",
       q("isValidJSON", "ss", "{}", "a"));
}

static void test_extract_typed(void **state) {
    (void)state;
    EQ("[1,2]", q("JSONExtract", "sss", "{\"a\": [1, 2]}", "a", "Array(UInt8)"));
    EQ("Array(UInt8)", et.type_name);
    EQ("x", q("JSONExtract", "sss", "{\"a\": \"x\"}", "a", "Nullable(String)"));
    EQ("Nullable(String)", et.type_name);
    EQ("\\N", q("JSONExtract", "sss", "{\"a\": null}", "a", "Nullable(String)"));
    EQ("\\N", q("JSONExtract", "sss", "{\"a\": 1}", "b", "Nullable(Int64)")); /* no such key */
    EQ("", q("JSONExtract", "sss", "{\"a\": null}", "a", "String"));
    EQ("1", q("JSONExtract", "sss", "{\"a\": 1}", "a", "String"));
    EQ("{\"b\":[1,\"x\"]}",
       q("JSONExtract", "sss", "{\"a\": {\"b\" : [1, \"x\"]}}", "a", "String"));
    EQ("20", q("JSONExtract", "ssis", "{\"a\": [10, 20]}", "a", I(-1), "UInt8"));
    EQ("7", q("JSONExtract", "ss", "7", "Int64")); /* no path: the root */
    EQ("0", q("JSONExtract", "ss", "not json", "Int64"));
    /* numbers: conversions from doubles (truncated), numeric strings, bools */
    EQ("1|-1|12|1|1000|1|0|0|0|0",
       q("JSONExtract", "cs", "String", "1.9|-1.9|\"12\"|\"1.5\"|\"1e3\"|true|null|\"abc\"|[1]|{}",
         "Int64"));
    EQ("255|0|0|0", q("JSONExtract", "cs", "String", "255|256|-1|\"300\"", "UInt8"));
    EQ("-128|0", q("JSONExtract", "cs", "String", "-128|-129", "Int8"));
    EQ("18446744073709551615|0",
       q("JSONExtract", "cs", "String", "18446744073709551615|-1", "UInt64"));
    EQ("0.1|1|1.5", q("JSONExtract", "cs", "String", "0.1|true|\"1.5\"", "Float32"));
    EQ("true|true|false|false|false", /* 0.5 reads as UInt8 0 */
       q("JSONExtract", "cs", "String", "true|2|0|\"true\"|0.5", "Bool"));
    EQ("false", q("JSONExtract", "ss", "256", "Bool")); /* read as UInt8 first */
    EQ("\\N|5", q("JSONExtract", "cs", "String", "\"abc\"|\"5\"", "Nullable(Int64)"));
    /* arrays: invalid elements become defaults unless none is valid */
    EQ("[1,2,3,1,0,0]", q("JSONExtract", "ss", "[1, 2.5, \"3\", true, null, \"x\"]",
                          "Array(Int32)"));
    EQ("[]", q("JSONExtract", "ss", "[\"a\", \"b\"]", "Array(UInt8)"));
    EQ("[]", q("JSONExtract", "ss", "[]", "Array(UInt8)"));
    EQ("[]", q("JSONExtract", "ss", "{\"a\": 1}", "Array(UInt8)"));
    EQ("[0,0,255]", q("JSONExtract", "ss", "[300, -1, 255]", "Array(UInt8)"));
    EQ("[1,NULL,NULL]", q("JSONExtract", "ss", "[1, null, \"x\"]", "Array(Nullable(Int8))"));
    EQ("[[1],[],[2,0]]", q("JSONExtract", "ss", "[[1], \"x\", [2, \"y\"]]", "Array(Array(Int8))"));
    EQ("['a','1','[2]']", q("JSONExtract", "ss", "[\"a\", 1, [2]]", "Array(String)"));
    /* maps: keys as they are, values that do not convert become defaults */
    EQ("{'a':1,'b':0}", q("JSONExtract", "ss", "{\"a\": 1, \"b\": \"x\"}", "Map(String, Int64)"));
    EQ("Map(String, Int64)", et.type_name);
    EQ("{'a':0}", q("JSONExtract", "ss", "{\"a\": \"x\"}", "Map(String, Int64)"));
    EQ("{}", q("JSONExtract", "ss", "[1]", "Map(String, Int64)"));
    EQ("{'k\"':['v']}",
       q("JSONExtract", "ss", "{\"k\\\"\": [\"v\"]}", "Map(String, Array(String))"));
}

static void test_extract_typed_scalars(void **state) {
    (void)state;
    EQ("b|a|a|a", q("JSONExtract", "cs", "String", "\"b\"|1|3|\"c\"", "Enum8('a' = 1, 'b' = 2)"));
    EQ("2020-01-02|1970-01-01", q("JSONExtract", "cs", "String", "\"2020-01-02\"|18000", "Date"));
    EQ("2020-01-02 03:04:05|1970-01-01 00:00:00",
       q("JSONExtract", "cs", "String", "\"2020-01-02 03:04:05\"|1700000000", "DateTime('UTC')"));
    EQ("2023-11-14 22:13:20.123|1970-01-01 00:00:01.500|2020-01-02 03:04:05.600",
       q("JSONExtract", "cs", "String", "1700000000123|1.5|\"2020-01-02 03:04:05.6\"",
         "DateTime64(3, 'UTC')"));
    EQ("1.55|2.5|12|100|0", q("JSONExtract", "cs", "String", "1.555|\"2.5\"|12|1e2|null",
                              "Decimal(9, 2)"));
    EQ("ERR EDECIMAL_OVERFLOW: Decimal convert overflow: value is out of range of Decimal(9, 2) "
       "in function JSONExtract", q("JSONExtract", "ss", "100000000", "Decimal(9, 2)"));
    EQ("61f0c404-5cb3-11e7-907b-a6006ad3dba0|00000000-0000-0000-0000-000000000000",
       q("JSONExtract", "cs", "String", "\"61f0c404-5cb3-11e7-907b-a6006ad3dba0\"|1", "UUID"));
    HEX("6162|0000", q("JSONExtract", "cs", "String", "\"ab\"|\"abc\"", "FixedString(2)"));
    EQ("x", q("JSONExtract", "ss", "\"x\"", "LowCardinality(Nullable(String))"));
    EQ("Nullable(String)", et.type_name); /* results are never LowCardinality */
    EQ("3|\\N|0", q("JSONExtract", "css", "Nullable(String)", "{\"a\":3}|\\N|[]", "a", "Int8"));
    EQ("Nullable(Int8)", et.type_name);
    EQ("ERR EILLEGAL_TYPE: JSONExtract doesn't support the return type schema: Map(UInt8, "
       "Int64) with key type not String", q("JSONExtract", "ss", "{}", "Map(UInt8, Int64)"));
    EQ("ERR EILLEGAL_TYPE: JSONExtract doesn't support the return type schema: Nothing",
       q("JSONExtract", "ss", "{}", "Nothing"));
    assert_non_null(strstr(q("JSONExtract", "ss", "{}", "Foo"), "ERR EUNKNOWN_TYPE"));
    EQ("ERR EILLEGAL_COLUMN: The last argument of function JSONExtract should be a constant "
       "string specifying the return data type", q("JSONExtract", "sc", "{}", "String", "Int8"));
    EQ("ERR ENUMBER_OF_ARGUMENTS: Function JSONExtract requires at least two arguments",
       q("JSONExtract", "s", "{}"));
    EQ("ERR EILLEGAL_TYPE: The argument 2 of function JSONExtract should be a string specifying "
       "key or an integer specifying index, illegal type: Float64",
       q("JSONExtract", "sfs", "{}", 1.0, "Int8"));
    EQ("ERR EILLEGAL_TYPE: The first argument of function JSONExtract should be a string "
       "containing JSON or a JSON object, illegal type: UInt8",
       q("JSONExtract", "us", U(1), "Int8"));
}

/* toJSONString: the JSON formats' encoding of any value (64-bit integers
 * quoted, nan and inf null, / escaped, map keys as strings), NULL for a
 * NULL argument. */
static void test_to_json_string(void **state) {
    (void)state;
    EQ("{\"key1\":1,\"key2\":2}", q("toJSONString", "k", "Map(String, UInt8)",
                                      "{'key1':1,'key2':2}"));
    EQ("String", et.type_name);
    EQ("{\"1\":\"x\",\"2\":\"\"}", q("toJSONString", "k", "Map(UInt8, String)",
                                         "{1:'x',2:''}"));
    EQ("[1,null,-3]", q("toJSONString", "k", "Array(Nullable(Int32))", "[1,NULL,-3]"));
    EQ("[{\"a\":[\"b\"]},{}]", q("toJSONString", "k", "Array(Map(String, Array(String)))",
                                    "[{'a':['b']},{}]"));
    EQ("\"a\\/\\\"b\\\\c\\n\"", q("toJSONString", "s", "a/\"b\\c\n"));
    EQ("\"5\"", q("toJSONString", "k", "UInt64", "5"));
    EQ("\"-5\"", q("toJSONString", "k", "Int64", "-5"));
    EQ("7", q("toJSONString", "k", "UInt32", "7"));
    EQ("1.5", q("toJSONString", "f", 1.5));
    EQ("null", q("toJSONString", "k", "Float64", "nan"));
    EQ("null", q("toJSONString", "k", "Float32", "-inf"));
    EQ("true", q("toJSONString", "k", "Bool", "true"));
    EQ("1.5", q("toJSONString", "k", "Decimal(9, 2)", "1.50"));
    EQ("\"2024-05-01\"", q("toJSONString", "k", "Date", "2024-05-01"));
    EQ("\"2024-05-01 10:00:00.250\"", q("toJSONString", "k", "DateTime64(3, 'UTC')",
                                         "2024-05-01 10:00:00.250"));
    EQ("\\N", q("toJSONString", "n"));
    EQ("Nullable(Nothing)", et.type_name);
    EQ("\"a\"|\\N|\"\"", q("toJSONString", "c", "Nullable(String)", "a|\\N|"));
    EQ("Nullable(String)", et.type_name);
    EQ("ERR ENUMBER_OF_ARGUMENTS: Number of arguments for function toJSONString "
       "doesn't match: passed 0, should be 1", q("toJSONString", ""));
    EQ("ERR ENUMBER_OF_ARGUMENTS: Number of arguments for function toJSONString "
       "doesn't match: passed 2, should be 1", q("toJSONString", "ss", "a", "b"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_documented_examples), cmocka_unit_test(test_paths),
        cmocka_unit_test(test_numbers),             cmocka_unit_test(test_strings_and_raw),
        cmocka_unit_test(test_invalid_documents),   cmocka_unit_test(test_extract_typed),
        cmocka_unit_test(test_extract_typed_scalars), cmocka_unit_test(test_to_json_string),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
