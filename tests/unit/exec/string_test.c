/* string_test.c: goal: every string function of fn_string.c and
 * fn_string2.c (format, countSubstrings, multiSearch*, ...) gives what
 * ClickHouse prints, over constants and columns, with NULLs, empty strings,
 * NUL bytes, UTF-8 and FixedString inputs; wrong argument counts and types
 * fail at bind with ClickHouse's wording; per-row errors (bad base64, a LIKE
 * pattern ending in a backslash, oversized padding) name the value.
 * Expected values come from ClickHouse's documentation and source and from
 * running the same queries on clickhouse-server.
 */
#define ET_STYLE_CALL_SPEC
#include "exec_test_util.h"

/* ---- length, empty, notEmpty, lengthUTF8 ------------------------------ */

static void test_length(void **state) {
    (void)state;
    EQ("5", q("length", "s", "hello"));
    EQ("UInt64", et.type_name);
    EQ("0", q("length", "s", ""));
    EQ("3", q("length", "b", "a\0b", (size_t)3));
    EQ("5", q("length", "k", "FixedString(5)", "ab"));
    EQ("3", q("length", "k", "Array(UInt8)", "[1,2,3]"));
    EQ("2", q("length", "k", "Map(String, UInt8)", "{'a':1,'b':2}"));
    EQ("2", q("LENGTH", "s", "ab"));
    EQ("3|\\N|0", q("length", "c", "Nullable(String)", "abc|\\N|"));
    EQ("Nullable(UInt64)", et.type_name);
    EQ("2|0|1", q("length", "c", "Array(String)", "['a','b']|[]|['']"));
    EQ("\\N", q("length", "n"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function length",
       q("length", "u", U(1)));
    EQ("ERR ENUMBER_OF_ARGUMENTS: Number of arguments for function length doesn't match: "
       "passed 0, should be 1", q("length", ""));
}

static void test_empty(void **state) {
    (void)state;
    EQ("1", q("empty", "s", ""));
    EQ("UInt8", et.type_name);
    EQ("0", q("empty", "s", "a"));
    EQ("0", q("empty", "b", "\0", (size_t)1));
    EQ("0", q("notEmpty", "s", ""));
    EQ("1", q("notEmpty", "s", " "));
    EQ("1", q("empty", "k", "FixedString(3)", ""));
    EQ("0", q("empty", "k", "FixedString(3)", "a"));
    EQ("1", q("empty", "k", "Array(UInt8)", "[]"));
    EQ("1", q("notEmpty", "k", "Array(UInt8)", "[1]"));
    EQ("1", q("empty", "k", "Map(String, UInt8)", "{}"));
    EQ("1", q("empty", "k", "UUID", "00000000-0000-0000-0000-000000000000"));
    EQ("0", q("empty", "k", "UUID", "00000000-0000-0000-0000-000000000001"));
    EQ("0|1|0|\\N", q("empty", "c", "Nullable(String)", "a||b|\\N"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function notEmpty",
       q("notEmpty", "u", U(1)));
}

static void test_length_utf8(void **state) {
    (void)state;
    EQ("6", q("lengthUTF8", "s", "привет"));
    EQ("5", q("char_length", "s", "héllo"));
    EQ("5", q("CHAR_LENGTH", "s", "héllo"));
    EQ("3", q("CHARACTER_LENGTH", "s", "a€b"));
    EQ("4", q("lengthUTF8", "s", "\xFF\xFE" "ab")); /* invalid bytes still count */
    EQ("0", q("lengthUTF8", "s", ""));
    EQ("1|\\N|3", q("lengthUTF8", "c", "Nullable(String)", "я|\\N|abc"));
    EQ("ERR EILLEGAL_TYPE: Illegal type Float64 of argument 1 of function lengthUTF8",
       q("char_length", "f", 1.0));
}

/* ---- case conversion ------------------------------------------------- */

static void test_case_ascii(void **state) {
    (void)state;
    EQ("abc xyz", q("lower", "s", "ABC xyZ"));
    EQ("ABC Ü", q("upper", "s", "abc Ü")); /* only ASCII letters change */
    EQ("abc", q("lcase", "s", "AbC"));
    EQ("ABC", q("UCASE", "s", "AbC"));
    EQ("abc", q("LOWER", "s", "ABC"));
    EQ("", q("upper", "s", ""));
    HEX("41004243", q("upper", "b", "a\0bc", (size_t)4));
    EQ("AB", q("upper", "k", "FixedString(3)", "ab"));
    EQ("FixedString(3)", et.type_name);
    EQ("A|\\N|[Z]", q("upper", "c", "Nullable(String)", "a|\\N|[z]"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function lower",
       q("lcase", "u", U(1)));
}

static void test_case_utf8(void **state) {
    (void)state;
    EQ("привет мир", q("lowerUTF8", "s", "ПРИВЕТ Мир"));
    EQ("ПРИВЕТ МИР", q("upperUTF8", "s", "привет мир"));
    EQ("STRASSE", q("upperUTF8", "s", "straße")); /* ICU's full mapping */
    EQ("FIX", q("upperUTF8", "s", "ﬁx"));
    EQ("οδος", q("lowerUTF8", "s", "ΟΔΟΣ")); /* final sigma */
    EQ("σα", q("lowerUTF8", "s", "ΣΑ"));
    EQ("i\xCC\x87", q("lowerUTF8", "s", "İ"));
    EQ("ÀÉÎ", q("upperUTF8", "s", "àéî"));
    EQ("abc", q("lowerUTF8", "s", "ABC"));
    HEX("61EFBFBD62", q("lowerUTF8", "s", "A\xFF" "B")); /* invalid byte -> U+FFFD */
    HEX("C3A9", q("lowerUTF8", "b", "\xC3\x89\0x", (size_t)4)); /* ends at NUL like ClickHouse */
    HEX("4100", q("upperUTF8", "b", "a\0", (size_t)2));    /* ASCII rows keep NULs */
    EQ("я|\\N|", q("lowerUTF8", "c", "Nullable(String)", "Я|\\N|"));
    EQ("ERR EILLEGAL_TYPE: Illegal type FixedString(2) of argument 1 of function lowerUTF8",
       q("lowerUTF8", "k", "FixedString(2)", "ab"));
}

/* ---- reverse ----------------------------------------------------------- */

static void test_reverse(void **state) {
    (void)state;
    EQ("cba", q("reverse", "s", "abc"));
    EQ("", q("REVERSE", "s", ""));
    HEX("006261", q("reverse", "k", "FixedString(3)", "ab"));
    EQ("FixedString(3)", et.type_name);
    EQ("['c','b','a']", q("reverse", "k", "Array(String)", "['a','b','c']"));
    EQ("Array(String)", et.type_name);
    EQ("[3,2,1]|[]|[NULL,1]", q("reverse", "c", "Array(Nullable(UInt8))", "[1,2,3]|[]|[1,NULL]"));
    EQ("тевирп", q("reverseUTF8", "s", "привет"));
    EQ("cba|\\N", q("reverseUTF8", "c", "Nullable(String)", "abc|\\N"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function reverse",
       q("reverse", "u", U(1)));
}

/* ---- substring, left, right ------------------------------------------ */

static void test_substring(void **state) {
    (void)state;
    EQ("ello", q("substring", "si", "hello", I(2)));
    EQ("String", et.type_name);
    EQ("el", q("substring", "sii", "hello", I(2), I(2)));
    EQ("llo", q("substring", "si", "hello", I(-3)));
    EQ("ll", q("substring", "sii", "hello", I(-3), I(2)));
    EQ("", q("substring", "si", "hello", I(10)));
    EQ("", q("substring", "sii", "hello", I(1), I(0)));
    EQ("", q("substring", "si", "hello", I(0)));
    EQ("", q("substring", "sii", "hello", I(0), I(3)));
    EQ("hello", q("substring", "si", "hello", I(-10)));
    EQ("he", q("substring", "sii", "hello", I(-10), I(7)));
    EQ("", q("substring", "sii", "hello", I(-10), I(5)));
    EQ("ell", q("substring", "sii", "hello", I(2), I(-1)));
    EQ("ell", q("substring", "sii", "hello", I(-4), I(-1)));
    EQ("", q("substring", "sii", "hello", I(2), I(-10)));
    EQ("hello", q("substring", "sii", "hello", I(1), I(INT64_MAX)));
    EQ("hello", q("substring", "si", "hello", I(INT64_MIN)));
    EQ("ello", q("substr", "si", "hello", I(2)));
    EQ("el", q("MID", "sii", "hello", I(2), I(2)));
    EQ("el", q("SUBSTRING", "sii", "hello", I(2), I(2)));
    HEX("BFD180", q("substring", "sii", "привет", I(2), I(3))); /* bytes, not characters */
    EQ("bc", q("substring", "ki", "FixedString(5)", "abc", I(2)));
    EQ("hello|b|", q("substring", "cc", "String", "hello|ab|", "Int64", "1|-1|2"));
    EQ("ell|\\N|a", q("substring", "ccc", "Nullable(String)", "hello|\\N|abc", "Int8", "2|1|-3",
                      "Int16", "3|1|1"));
    EQ("\\N", q("substring", "ni", I(1)));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function substring",
       q("substr", "ui", U(1), I(1)));
    EQ("ERR EILLEGAL_TYPE: Illegal type String of argument 2 of function substring",
       q("substring", "ss", "a", "b"));
    EQ("ERR ENUMBER_OF_ARGUMENTS: Number of arguments for function substring doesn't match: "
       "passed 1, should be 2 to 3", q("substring", "s", "a"));
}

static void test_substring_utf8(void **state) {
    (void)state;
    EQ("рив", q("substringUTF8", "sii", "привет", I(2), I(3)));
    EQ("вет", q("substringUTF8", "si", "привет", I(-3)));
    EQ("привет", q("substringUTF8", "si", "привет", I(-30)));
    EQ("he", q("substringUTF8", "sii", "hello", I(-10), I(7)));
    EQ("риве", q("substringUTF8", "sii", "привет", I(2), I(-1)));
    EQ("", q("substringUTF8", "si", "привет", I(7)));
    EQ("", q("substringUTF8", "si", "привет", I(0)));
    HEX("FF62", q("substringUTF8", "sii", "a\xFF" "bc", I(2), I(2)));
    EQ("ERR EILLEGAL_TYPE: Illegal type FixedString(3) of argument 1 of function substringUTF8",
       q("substringUTF8", "ki", "FixedString(3)", "abc", I(1)));
}

static void test_left_right(void **state) {
    (void)state;
    EQ("he", q("left", "si", "hello", I(2)));
    EQ("hel", q("left", "si", "hello", I(-2)));
    EQ("", q("left", "si", "hello", I(0)));
    EQ("hello", q("LEFT", "si", "hello", I(10)));
    EQ("", q("left", "si", "hello", I(-10)));
    EQ("lo", q("right", "si", "hello", I(2)));
    EQ("llo", q("right", "si", "hello", I(-2)));
    EQ("hello", q("RIGHT", "si", "hello", I(10)));
    EQ("", q("right", "si", "hello", I(-10)));
    EQ("", q("right", "si", "hello", I(0)));
    EQ("пр", q("leftUTF8", "si", "привет", I(2)));
    EQ("ивет", q("rightUTF8", "si", "привет", I(-2)));
    EQ("ет", q("rightUTF8", "si", "привет", I(2)));
    EQ("прив", q("leftUTF8", "si", "привет", I(-2)));
    EQ("a|bc|\\N", q("left", "cc", "Nullable(String)", "abc|bcd|\\N", "UInt8", "1|2|3"));
    EQ("ERR ENUMBER_OF_ARGUMENTS: Number of arguments for function left doesn't match: "
       "passed 3, should be 2", q("left", "sii", "a", I(1), I(1)));
}

/* ---- concat ---------------------------------------------------------- */

static void test_concat(void **state) {
    (void)state;
    EQ("abc", q("concat", "sss", "a", "b", "c"));
    EQ("String", et.type_name);
    EQ("", q("concat", ""));
    EQ("x", q("concat", "s", "x"));
    EQ("42144", q("CONCAT", "uu", U(42), U(144)));
    EQ("a12.5-3", q("concat", "suff", "a", U(1), 2.5, -3.0));
    EQ("[1,2]x", q("concat", "ks", "Array(UInt8)", "[1,2]", "x"));
    EQ("2020-01-02!", q("concat", "ks", "Date", "2020-01-02", "!"));
    HEX("610062", q("concat", "ks", "FixedString(2)", "a", "b"));
    EQ("\\N", q("concat", "sn", "a", NULL));
    EQ("xy|\\N|y", q("concat", "cs", "Nullable(String)", "x|\\N|", "y"));
    EQ("Nullable(String)", et.type_name);
    EQ("a1|b2", q("concat", "cc", "String", "a|b", "UInt8", "1|2"));
    const char *arrays = q("concat", "kk", "Array(UInt8)", "[1]", "Array(UInt8)", "[2,3]");
    if (exec_function_find("arrayConcat", 11) != NULL) EQ("[1,2,3]", arrays);
    else EQ("ERR ENOT_SUPPORTED: concat of arrays needs function arrayConcat", arrays);
}

static void test_concat_with_separator(void **state) {
    (void)state;
    EQ("a-b-c", q("concatWithSeparator", "ssss", "-", "a", "b", "c"));
    EQ("a", q("concat_ws", "ss", ",", "a"));
    EQ("a, b", q("CONCAT_WS", "sss", ", ", "a", "b"));
    EQ("", q("concatWithSeparator", "s", ","));
    EQ("a-1", q("concatWithSeparator", "ssu", "-", "a", U(1)));
    EQ("x+y|\\N", q("concatWithSeparator", "scs", "+", "Nullable(String)", "x|\\N", "y"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function concatWithSeparator",
       q("concat_ws", "us", U(1), "a"));
    EQ("ERR ENUMBER_OF_ARGUMENTS: Number of arguments for function concatWithSeparator doesn't "
       "match: passed 0, should be at least 1", q("concatWithSeparator", ""));
}

/* ---- position -------------------------------------------------------- */

static void test_position(void **state) {
    (void)state;
    EQ("5", q("position", "ss", "hello world", "o"));
    EQ("UInt64", et.type_name);
    EQ("0", q("position", "ss", "hello", "z"));
    EQ("1", q("position", "ss", "hello", ""));
    EQ("3", q("position", "ssu", "hello", "", U(3)));
    EQ("6", q("position", "ssu", "hello", "", U(6)));
    EQ("0", q("position", "ssu", "hello", "", U(7)));
    EQ("1", q("position", "ss", "", ""));
    EQ("2", q("position", "ss", "abcabc", "bc"));
    EQ("5", q("POSITION", "ssu", "abcabc", "bc", U(3)));
    EQ("2", q("position", "ssu", "abcabc", "bc", U(0)));
    EQ("0", q("position", "ssi", "abcabc", "bc", I(-1)));
    EQ("14", q("position", "ss", "привет мир", "мир"));
    EQ("3", q("position", "bs", "a\0b", (size_t)3, "b"));
    EQ("2", q("locate", "ss", "bc", "abcabc"));
    EQ("5", q("LOCATE", "ssu", "bc", "abcabc", U(3)));
    EQ("3", q("positionCaseInsensitive", "ss", "HeLLo", "ll"));
    EQ("0", q("positionCaseInsensitive", "ss", "ПРИВЕТ", "п"));
    EQ("8", q("positionUTF8", "ss", "привет мир", "мир"));
    EQ("9", q("positionUTF8", "ssu", "привет мир", "и", U(4)));
    EQ("3", q("positionCaseInsensitiveUTF8", "ss", "ПРИВЕТ мир", "ивет"));
    EQ("8", q("positionCaseInsensitiveUTF8", "ss", "привет МИР", "Мир"));
    EQ("2|2|0|\\N", q("position", "cs", "Nullable(String)", "abc|xbc||\\N", "bc"));
    EQ("1|3|0|1", q("position", "sc", "abc", "String", "a|c|z|"));
    EQ("2|4|0", q("position", "ccc", "String", "abab|abab|ab", "String", "b|b|b", "UInt8",
                  "1|3|5"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function position",
       q("position", "us", U(1), "a"));
    EQ("ERR EILLEGAL_TYPE: Illegal type String of argument 3 of function position",
       q("position", "sss", "a", "b", "c"));
}

/* ---- like ------------------------------------------------------------ */

static void test_like(void **state) {
    (void)state;
    EQ("1", q("like", "ss", "abc", "a%"));
    EQ("UInt8", et.type_name);
    EQ("1", q("like", "ss", "abc", "%c"));
    EQ("1", q("like", "ss", "abc", "%b%"));
    EQ("1", q("like", "ss", "abc", "a_c"));
    EQ("0", q("like", "ss", "abc", "a_"));
    EQ("1", q("like", "ss", "abc", "abc"));
    EQ("0", q("like", "ss", "abc", "ab"));
    EQ("1", q("like", "ss", "abc", "abc%%"));
    EQ("1", q("like", "ss", "abc", "%"));
    EQ("1", q("like", "ss", "", "%"));
    EQ("1", q("like", "ss", "", ""));
    EQ("0", q("like", "ss", "xyz", ""));
    EQ("1", q("like", "ss", "a%c", "a\\%c"));
    EQ("0", q("like", "ss", "abc", "a\\%c"));
    EQ("1", q("like", "ss", "a_c", "a\\_c"));
    EQ("1", q("like", "ss", "ab\\c", "ab\\\\c"));
    EQ("0", q("like", "ss", "ab", "a\\b"));   /* unknown escape: a literal backslash */
    EQ("1", q("like", "ss", "a\\b", "a\\b"));
    EQ("1", q("like", "ss", "привет", "п_ивет"));
    EQ("0", q("like", "ss", "привет", "п_вет"));
    EQ("1", q("like", "ss", "a\nb", "a_b"));
    EQ("1", q("like", "ss", "a\nb", "a%b"));
    EQ("1", q("like", "ss", "aaab", "%a_b"));
    EQ("0", q("like", "ss", "ab", "%a%b%a"));
    EQ("1", q("like", "ss", "aXbXc", "a%b%c"));
    EQ("1", q("like", "ss", "abcabc", "%a%c%"));
    EQ("1", q("like", "bs", "a\0b", (size_t)3, "%b"));
    EQ("0", q("notLike", "ss", "abc", "%"));
    EQ("1", q("notLike", "ss", "abc", "x%"));
    EQ("1", q("ilike", "ss", "ABC", "a%"));
    EQ("1", q("ilike", "ss", "ПРИВЕТ", "%ив%"));
    EQ("1", q("ilike", "ss", "Straße", "STRA_E"));
    EQ("0", q("notILike", "ss", "abc", "%B%"));
    EQ("0", q("like", "ks", "FixedString(3)", "ab", "ab")); /* the padding is part of it */
    EQ("1", q("like", "ks", "FixedString(3)", "ab", "ab%"));
    EQ("1|0|\\N", q("like", "cs", "Nullable(String)", "abc|xbc|\\N", "a%"));
    EQ("1|1|0|1", q("like", "cc", "String", "abc|abd|abe|x%", "String", "%c|_bd|a\\%|x\\%"));
    EQ("0|1", q("ilike", "cc", "String", "abc|ABC", "String", "b%|a%"));
    EQ("ERR EESCAPE: Invalid escape sequence at the end of LIKE pattern 'a\\' (function like)",
       q("like", "ss", "a", "a\\"));
    EQ("ERR EESCAPE: Invalid escape sequence at the end of LIKE pattern '\\' (function notLike)",
       q("notLike", "cs", "String", "a|b", "\\"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 2 of function like",
       q("like", "su", "a", U(1)));
}

/* ---- startsWith, endsWith, trim, replace ------------------------------ */

static void test_starts_ends(void **state) {
    (void)state;
    EQ("1", q("startsWith", "ss", "hello", "he"));
    EQ("1", q("startsWith", "ss", "hello", ""));
    EQ("0", q("startsWith", "ss", "he", "hello"));
    EQ("1", q("endsWith", "ss", "hello", "lo"));
    EQ("0", q("endsWith", "ss", "lo", "hello"));
    EQ("0", q("endsWith", "ks", "FixedString(3)", "ab", "b"));
    EQ("1", q("endsWith", "kb", "FixedString(3)", "ab", "b\0", (size_t)2));
    EQ("1|0|\\N", q("startsWith", "cs", "Nullable(String)", "ab|ba|\\N", "a"));
    EQ("1|0", q("endsWith", "cc", "String", "ab|ab", "String", "b|a"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function startsWith",
       q("startsWith", "us", U(1), "a"));
}

static void test_trim(void **state) {
    (void)state;
    EQ("a b", q("trimBoth", "s", "  a b  "));
    EQ("a ", q("trimLeft", "s", "  a "));
    EQ(" a", q("trimRight", "s", " a  "));
    EQ("a", q("TRIM", "s", " a "));
    EQ("a ", q("ltrim", "s", " a "));
    EQ(" a", q("RTRIM", "s", " a "));
    EQ("\t a \t", q("trimBoth", "s", "\t a \t")); /* spaces only */
    EQ("", q("trimBoth", "s", "    "));
    EQ("ClickHouse", q("trimBoth", "ss", "$$ClickHouse$$", "$"));
    EQ("House", q("trimLeft", "ss", "ClickHouse", "Click"));
    EQ("Click", q("trimRight", "ss", "ClickHouse", "House"));
    EQ("ab", q("trimBoth", "ss", "ab", ""));
    EQ("a", q("trimBoth", "k", "FixedString(4)", " a"));
    EQ("String", et.type_name);
    EQ("a|\\N|b", q("trimBoth", "c", "Nullable(String)", " a |\\N|b"));
    EQ("ERR EILLEGAL_COLUMN: Illegal column of argument 2 of function trimBoth: must be a "
       "constant String", q("trimBoth", "sc", "a", "String", "x"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function trimLeft",
       q("ltrim", "u", U(1)));
}

static void test_replace(void **state) {
    (void)state;
    EQ("a--b--c", q("replaceAll", "sss", "aXbXc", "X", "--"));
    EQ("a--bXc", q("replaceOne", "sss", "aXbXc", "X", "--"));
    EQ("ba", q("replaceAll", "sss", "aaa", "aa", "b"));
    EQ("abc", q("replaceAll", "sss", "abc", "", "z"));
    EQ("ac", q("REPLACE", "sss", "abc", "b", ""));
    EQ("", q("replaceAll", "sss", "", "a", "b"));
    HEX("780062", q("replaceAll", "bss", "a\0b", (size_t)3, "a", "x"));
    EQ("x-y|\\N|-", q("replaceAll", "css", "Nullable(String)", "x_y|\\N|_", "_", "-"));
    EQ("1b|a2|ab", q("replaceOne", "scc", "ab", "String", "a|b|", "String", "1|2|3"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 3 of function replaceAll",
       q("replace", "ssu", "a", "b", U(1)));
}

/* ---- split ----------------------------------------------------------- */

static void test_split(void **state) {
    (void)state;
    EQ("['a','','b','']", q("splitByChar", "ss", ",", "a,,b,"));
    EQ("Array(String)", et.type_name);
    EQ("['']", q("splitByChar", "ss", ",", ""));
    EQ("['a','b']", q("splitByChar", "ssi", ",", "a,b,c", I(2)));
    EQ("['a','b','c']", q("splitByChar", "ssi", ",", "a,b,c", I(0)));
    EQ("['a','b','c']", q("splitByString", "ss", ", ", "a, b, c"));
    EQ("['a','b','c']", q("splitByString", "ss", "", "abc"));
    EQ("['a','b']", q("splitByString", "ssi", "", "abc", I(2)));
    EQ("[]", q("splitByString", "ss", "", ""));
    EQ("['']", q("splitByString", "ss", ",", ""));
    EQ("['','']", q("splitByString", "ss", "ab", "ab"));
    EQ("['a','b','c']", q("splitByWhitespace", "s", "  a b\tc\n "));
    EQ("[]", q("splitByWhitespace", "s", ""));
    EQ("[]", q("splitByWhitespace", "s", " \t"));
    EQ("['a','b']", q("splitByWhitespace", "si", "a b c", I(2)));
    EQ("['a','b']|['c']", q("splitByChar", "sc", ";", "String", "a;b|c"));
    EQ("ERR EINVAL: Illegal separator for function splitByChar. Must be exactly one byte.",
       q("splitByChar", "ss", ",,", "a"));
    EQ("ERR EILLEGAL_COLUMN: Illegal column of first argument of function splitByChar. Must be "
       "constant string.", q("splitByChar", "cs", "String", ",", "a"));
    EQ("ERR EILLEGAL_TYPE: Illegal type FixedString(1) of argument 2 of function splitByString",
       q("splitByString", "sk", ",", "FixedString(1)", "a"));
}

/* ---- repeat, padding ------------------------------------------------- */

static void test_repeat(void **state) {
    (void)state;
    EQ("ababab", q("repeat", "su", "ab", U(3)));
    EQ("", q("repeat", "su", "x", U(0)));
    EQ("", q("repeat", "si", "x", I(-1)));
    EQ("", q("REPEAT", "su", "", U(5)));
    EQ("aa|bcbcbc|\\N", q("repeat", "cc", "Nullable(String)", "a|bc|\\N", "UInt8", "2|3|4"));
    EQ("ERR ETOO_LARGE: Too many times to repeat (1000001), maximum is: 1000000",
       q("repeat", "su", "a", U(1000001)));
    EQ("ERR EILLEGAL_TYPE: Illegal type String of argument 2 of function repeat",
       q("repeat", "ss", "a", "b"));
}

static void test_pad(void **state) {
    (void)state;
    EQ("****abc", q("leftPad", "sus", "abc", U(7), "*"));
    EQ("    def", q("leftPad", "su", "def", U(7)));
    EQ("abc****", q("rightPad", "sus", "abc", U(7), "*"));
    EQ("abc    ", q("rightPad", "su", "abc", U(7)));
    EQ("abc", q("leftPad", "su", "abcdef", U(3)));
    EQ("abc", q("rightPad", "su", "abcdef", U(3)));
    EQ("    abc", q("leftPad", "sus", "abc", U(7), "")); /* an empty pad is a space */
    EQ("xyxyxabc", q("LPAD", "sus", "abc", U(8), "xy"));
    EQ("abcxyxyx", q("rpad", "sus", "abc", U(8), "xy"));
    EQ("***абвг", q("leftPadUTF8", "sus", "абвг", U(7), "*"));
    EQ("абвг***", q("rightPadUTF8", "sus", "абвг", U(7), "*"));
    EQ("аб", q("leftPadUTF8", "su", "абвг", U(2)));
    EQ("ééa", q("leftPadUTF8", "sus", "a", U(3), "é"));
    EQ("  a|\\N", q("leftPad", "cu", "Nullable(String)", "a|\\N", U(3)));
    EQ("a|bb|ccc", q("rightPad", "cc", "String", "aaa|bbb|ccc", "UInt8", "1|2|3"));
    EQ("ab", q("leftPadUTF8", "ku", "FixedString(3)", "ab", U(2)));
    EQ("ERR ETOO_LARGE: New padded length (1000001) is too big, maximum is: 1000000",
       q("leftPad", "su", "a", U(1000001)));
    EQ("ERR EOUT_OF_BOUND: New padded length (-1) is negative", q("rightPad", "si", "a", I(-1)));
    EQ("ERR EILLEGAL_COLUMN: Illegal column, third argument of function leftPad must be a "
       "constant string", q("leftPad", "suc", "a", U(3), "String", "x"));
    EQ("ERR EILLEGAL_TYPE: Illegal type String of argument 2 of function leftPad",
       q("leftPad", "ss", "a", "b"));
}

/* ---- base64 ---------------------------------------------------------- */

static void test_base64(void **state) {
    (void)state;
    EQ("aGVsbG8=", q("base64Encode", "s", "hello"));
    EQ("", q("base64Encode", "s", ""));
    EQ("YQ==", q("base64Encode", "s", "a"));
    EQ("YWI=", q("TO_BASE64", "s", "ab"));
    EQ("YWJj", q("base64Encode", "s", "abc"));
    EQ("hello", q("base64Decode", "s", "aGVsbG8="));
    EQ("a", q("FROM_BASE64", "s", "YQ=="));
    EQ("", q("base64Decode", "s", ""));
    EQ("hello", q("base64Decode", "s", " aGVs\nbG8= "));
    EQ("f", q("base64Decode", "s", "Zh=="));
    EQ("ERR EINCORRECT_DATA: Invalid base64Decode value (foo), cannot be decoded",
       q("base64Decode", "s", "foo"));
    EQ("ERR EINCORRECT_DATA: Invalid base64Decode value (YQ), cannot be decoded",
       q("base64Decode", "s", "YQ"));
    EQ("ERR EINCORRECT_DATA: Invalid base64Decode value (YQ==YQ==), cannot be decoded",
       q("base64Decode", "s", "YQ==YQ=="));
    EQ("", q("tryBase64Decode", "s", "foo"));
    EQ("", q("tryBase64Decode", "s", "Y!=="));
    EQ("hello", q("tryBase64Decode", "s", "aGVsbG8="));
    EQ("-_8", q("base64URLEncode", "s", "\xFB\xFF"));
    HEX("FBFF", q("base64URLDecode", "s", "-_8"));
    EQ("f", q("base64URLDecode", "s", "Zg="));
    EQ("f", q("base64URLDecode", "s", "Zg"));
    HEX("FB", q("base64URLDecode", "s", "+w=="));
    EQ("", q("tryBase64URLDecode", "s", "a"));
    EQ("a|\\N|", q("base64Decode", "c", "Nullable(String)", "YQ==|\\N|"));
    EQ("YQ==|\\N", q("base64Encode", "c", "Nullable(String)", "a|\\N"));
    EQ("YQA=", q("base64Encode", "k", "FixedString(2)", "a"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function base64Encode",
       q("base64Encode", "u", U(1)));
}

/* ---- hex, unhex ------------------------------------------------------ */

static void test_hex(void **state) {
    (void)state;
    EQ("616263", q("hex", "s", "abc"));
    EQ("", q("hex", "s", ""));
    EQ("FF", q("hex", "u", U(255)));
    EQ("0100", q("HEX", "u", U(256)));
    EQ("00", q("hex", "u", U(0)));
    EQ("FF", q("hex", "i", I(-1)));
    EQ("FC18", q("hex", "i", I(-1000)));
    EQ("FFFFFFFF", q("hex", "k", "Int32", "-1"));
    EQ("01", q("hex", "k", "UInt64", "1"));
    EQ("000000000000F03F", q("hex", "f", 1.0));
    EQ("0000C03F", q("hex", "k", "Float32", "1.5"));
    EQ("4756", q("hex", "k", "Date", "2020-01-01"));
    EQ("610000", q("hex", "k", "FixedString(3)", "a"));
    EQ("61|\\N", q("hex", "c", "Nullable(String)", "a|\\N"));
    EQ("ERR EILLEGAL_TYPE: Illegal type Array(UInt8) of argument 1 of function hex",
       q("hex", "k", "Array(UInt8)", "[1]"));
    EQ("abc", q("unhex", "s", "616263"));
    EQ("abc", q("UNHEX", "s", "616263"));
    EQ("", q("unhex", "s", ""));
    HEX("0123", q("unhex", "s", "123"));
    HEX("FF", q("unhex", "s", "fF"));
    HEX("FF", q("unhex", "s", "0g"));
    EQ("a|\\N", q("unhex", "c", "Nullable(String)", "61|\\N"));
}

/* ---- UTF-8 validation ------------------------------------------------- */

static void test_valid_utf8(void **state) {
    (void)state;
    HEX("61EFBFBD62", q("toValidUTF8", "s", "\x61\xF0\x80\x80\x80" "b"));
    EQ("abc", q("toValidUTF8", "s", "abc"));
    EQ("привет", q("toValidUTF8", "s", "привет"));
    HEX("EFBFBD", q("toValidUTF8", "s", "\xFF"));
    HEX("61EFBFBD", q("toValidUTF8", "s", "a\xC3"));
    HEX("EFBFBD41EFBFBD", q("toValidUTF8", "s", "\xED\xA0\x80" "A\xC0\xAF"));
    EQ("|\\N", q("toValidUTF8", "c", "Nullable(String)", "|\\N"));
    EQ("1", q("isValidUTF8", "s", "привет"));
    EQ("0", q("isValidUTF8", "s", "\xFF"));
    EQ("0", q("isValidUTF8", "s", "\xED\xA0\x80")); /* a surrogate */
    EQ("0", q("isValidUTF8", "s", "\xF4\x90\x80\x80")); /* past U+10FFFF */
    EQ("1", q("isValidUTF8", "s", ""));
}

/* ---- appendTrailingCharIfAbsent, format ------------------------------- */

static void test_append_trailing_char(void **state) {
    (void)state;
    EQ("a/", q("appendTrailingCharIfAbsent", "ss", "a", "/"));
    EQ("String", et.type_name);
    EQ("a/", q("appendTrailingCharIfAbsent", "ss", "a/", "/"));
    EQ("", q("appendTrailingCharIfAbsent", "ss", "", "/")); /* empty stays empty */
    EQ("x/|/|\\N|", q("appendTrailingCharIfAbsent", "cs", "Nullable(String)", "x|/|\\N|", "/"));
    EQ("ERR EINVAL: Second argument of function appendTrailingCharIfAbsent must be a "
       "one-character string", q("appendTrailingCharIfAbsent", "ss", "a", "//"));
    EQ("ERR EINVAL: Second argument of function appendTrailingCharIfAbsent must be a "
       "one-character string", q("appendTrailingCharIfAbsent", "ss", "a", ""));
    EQ("ERR EILLEGAL_COLUMN: Second argument of function appendTrailingCharIfAbsent must be a "
       "constant string", q("appendTrailingCharIfAbsent", "sc", "a", "String", "/"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function "
       "appendTrailingCharIfAbsent", q("appendTrailingCharIfAbsent", "us", U(1), "/"));
    EQ("ERR EILLEGAL_TYPE: Illegal type FixedString(1) of argument 1 of function "
       "appendTrailingCharIfAbsent",
       q("appendTrailingCharIfAbsent", "ks", "FixedString(1)", "a", "/"));
}

static void test_format(void **state) {
    (void)state;
    EQ("1 + 2 = 3", q("format", "ssss", "{} + {} = {}", "1", "2", "3"));
    EQ("String", et.type_name);
    EQ("Hello World Hello", q("format", "sss", "{1} {0} {1}", "World", "Hello"));
    EQ("{}x}", q("format", "ss", "{{}}{}}}", "x"));
    EQ("no placeholders", q("format", "ss", "no placeholders", "x"));
    EQ("7-2.5-[1,2]", q("format", "sufk", "{}-{}-{}", U(7), 2.5, "Array(UInt8)", "[1,2]"));
    EQ("['a']", q("format", "sk", "{}", "Array(String)", "['a']"));
    HEX("61620078", q("format", "sks", "{}{}", "FixedString(3)", "ab", "x"));
    EQ("a:1|b:2|\\N", q("format", "scc", "{}:{}", "String", "a|b|c", "Nullable(UInt8)", "1|2|\\N"));
    EQ("\\N", q("format", "sn", "{}"));
    EQ("ERR EINVAL: Not enough arguments to fill the placeholders in the format string",
       q("format", "ss", "{} {}", "a"));
    EQ("ERR EINVAL: Cannot switch from automatic field numbering to manual field "
       "specification", q("format", "sss", "{0} {}", "a", "b"));
    EQ("ERR EINVAL: Cannot switch from automatic field numbering to manual field "
       "specification", q("format", "sss", "{} {1}", "a", "b"));
    EQ("ERR EINVAL: Too big number for arguments, must be at most 0",
       q("format", "ss", "{5}", "a"));
    EQ("ERR EINVAL: Not a number in curly braces at position 1", q("format", "ss", "{a}", "x"));
    EQ("ERR EINVAL: Closed curly brace without open one at position 1",
       q("format", "ss", "a}b", "x"));
    EQ("ERR EINVAL: Two open curly braces without close one at position 2",
       q("format", "ss", "{0{}", "x"));
    EQ("ERR EINVAL: Last open curly brace is not closed", q("format", "ss", "ab{", "x"));
    EQ("ERR ENUMBER_OF_ARGUMENTS: Number of arguments for function format doesn't match: "
       "passed 1, should be at least 2", q("format", "s", "{}"));
    EQ("ERR EILLEGAL_COLUMN: First argument of function format must be constant string",
       q("format", "cs", "String", "{}", "x"));
}

/* ---- countSubstrings ----------------------------------------------------- */

static void test_count_substrings(void **state) {
    (void)state;
    EQ("2", q("countSubstrings", "ss", "aaaa", "aa")); /* non-overlapping */
    EQ("UInt64", et.type_name);
    EQ("2", q("countSubstrings", "ss", "abababa", "aba"));
    EQ("0", q("countSubstrings", "ss", "abc", ""));
    EQ("0", q("countSubstrings", "ss", "", "a"));
    EQ("1", q("countSubstrings", "ssu", "abcabc", "abc", U(2)));
    EQ("0", q("countSubstrings", "ssu", "abc", "abc", U(9)));
    EQ("2", q("countSubstrings", "ssu", "abcabc", "abc", U(0)));
    /* a constant needle over a column counts from each row's start */
    EQ("0|1", q("countSubstrings", "csu", "String", "aaa|aaaa", "aa", U(2)));
    EQ("1", q("countSubstrings", "ssu", "aaa", "aa", U(2)));
    EQ("1|0|\\N", q("countSubstrings", "cc", "Nullable(String)", "ab|b|\\N", "String", "a|a|a"));
    EQ("2", q("countSubstringsCaseInsensitive", "ss", "aBcAbC", "ABC"));
    EQ("0", q("countSubstringsCaseInsensitive", "ss", "ПРИВЕТ", "привет"));
    EQ("2", q("countSubstringsCaseInsensitiveUTF8", "ss", "ПриветПРИВЕТ", "привет"));
    EQ("1", q("countSubstringsCaseInsensitiveUTF8", "ssu", "ПриветПРИВЕТ", "привет", U(2)));
    EQ("ERR EILLEGAL_TYPE: Illegal type Int8 of argument 3 of function countSubstrings",
       q("countSubstrings", "ssi", "a", "a", I(-1)));
    EQ("ERR EILLEGAL_TYPE: Illegal type FixedString(1) of argument 2 of function "
       "countSubstrings", q("countSubstrings", "sk", "a", "FixedString(1)", "a"));
    EQ("ERR EILLEGAL_COLUMN: Function 'countSubstrings' doesn't support FixedString haystack "
       "argument", q("countSubstrings", "ks", "FixedString(2)", "aa", "a"));
    EQ("ERR ENUMBER_OF_ARGUMENTS: Number of arguments for function countSubstrings doesn't "
       "match: passed 1, should be 2 or 3", q("countSubstrings", "s", "a"));
}

/* ---- multiSearch* ---------------------------------------------------------- */

static void test_multi_search(void **state) {
    (void)state;
    EQ("1", q("multiSearchAny", "sk", "hello", "Array(String)", "['x','ell']"));
    EQ("UInt8", et.type_name);
    EQ("0", q("multiSearchAny", "sk", "hello", "Array(String)", "['x']"));
    EQ("0", q("multiSearchAny", "sk", "hello", "Array(String)", "[]"));
    EQ("1", q("multiSearchAny", "sk", "a", "Array(String)", "['']")); /* empty needle */
    EQ("0", q("multiSearchAny", "sk", "", "Array(String)", "['']"));
    EQ("3", q("multiSearchFirstPosition", "sk", "hello", "Array(String)", "['l','o']"));
    EQ("UInt64", et.type_name);
    EQ("0", q("multiSearchFirstPosition", "sk", "hello", "Array(String)", "['x']"));
    EQ("2", q("multiSearchFirstIndex", "sk", "hello", "Array(String)", "['x','o','h']"));
    EQ("0", q("multiSearchFirstIndex", "sk", "hello", "Array(String)", "['x']"));
    EQ("[3,0,1]", q("multiSearchAllPositions", "sk", "hello", "Array(String)", "['l','x','h']"));
    EQ("Array(UInt64)", et.type_name);
    EQ("[]", q("multiSearchAllPositions", "sk", "hello", "Array(String)", "[]"));
    EQ("[4,6]", q("multiSearchAllPositionsUTF8", "sk", "привет", "Array(String)", "['в','т']"));
    EQ("[7,11]", q("multiSearchAllPositions", "sk", "привет", "Array(String)", "['в','т']"));
    EQ("3", q("multiSearchFirstPositionCaseInsensitive", "sk", "HELLO", "Array(String)", "['l']"));
    EQ("0", q("multiSearchAnyCaseInsensitive", "sk", "ПРИВЕТ", "Array(String)", "['вет']"));
    EQ("1", q("multiSearchAnyCaseInsensitiveUTF8", "sk", "ПРИВЕТ", "Array(String)", "['вет']"));
    EQ("4", q("multiSearchFirstPositionCaseInsensitiveUTF8", "sk", "ПРИВЕТ", "Array(String)",
              "['вет','x']"));
    EQ("1|0|\\N", q("multiSearchAny", "ck", "Nullable(String)", "abc|xyz|\\N", "Array(String)",
                    "['b','q']"));
    EQ("2|1|0", q("multiSearchFirstPosition", "cc", "String", "abc|abc|abc", "Array(String)",
                  "['b']|['a','c']|[]"));
    EQ("[1]|[0,3]", q("multiSearchAllPositions", "cc", "String", "abc|abc", "Array(String)",
                      "['a']|['x','c']"));
    EQ("ERR EILLEGAL_TYPE: Illegal type Array(UInt8) of argument 2 of function multiSearchAny",
       q("multiSearchAny", "sk", "a", "Array(UInt8)", "[1]"));
    EQ("ERR EILLEGAL_TYPE: Illegal type String of argument 2 of function multiSearchAny",
       q("multiSearchAny", "ss", "a", "b"));
    EQ("ERR EILLEGAL_TYPE: Illegal type FixedString(1) of argument 1 of function "
       "multiSearchAny", q("multiSearchAny", "kk", "FixedString(1)", "a", "Array(String)",
                           "['a']"));
}

static void test_multi_search_limit(void **state) {
    (void)state;
    char needles[2048] = "[";
    for (int k = 0; k < 256; k++) strcat(needles, k ? ",'a'" : "'a'");
    strcat(needles, "]");
    EQ("ERR ENUMBER_OF_ARGUMENTS: Number of arguments for function multiSearchAny doesn't "
       "match: passed 256, should be at most 255",
       q("multiSearchAny", "sk", "a", "Array(String)", needles));
    needles[strlen(needles) - 5] = ']'; /* 255 needles */
    needles[strlen(needles) - 4] = '\0';
    EQ("1", q("multiSearchAny", "sk", "a", "Array(String)", needles));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_length),          cmocka_unit_test(test_empty),
        cmocka_unit_test(test_length_utf8),     cmocka_unit_test(test_case_ascii),
        cmocka_unit_test(test_case_utf8),       cmocka_unit_test(test_reverse),
        cmocka_unit_test(test_substring),       cmocka_unit_test(test_substring_utf8),
        cmocka_unit_test(test_left_right),      cmocka_unit_test(test_concat),
        cmocka_unit_test(test_concat_with_separator), cmocka_unit_test(test_position),
        cmocka_unit_test(test_like),            cmocka_unit_test(test_starts_ends),
        cmocka_unit_test(test_trim),            cmocka_unit_test(test_replace),
        cmocka_unit_test(test_split),           cmocka_unit_test(test_repeat),
        cmocka_unit_test(test_pad),             cmocka_unit_test(test_base64),
        cmocka_unit_test(test_hex),             cmocka_unit_test(test_valid_utf8),
        cmocka_unit_test(test_append_trailing_char), cmocka_unit_test(test_format),
        cmocka_unit_test(test_count_substrings), cmocka_unit_test(test_multi_search),
        cmocka_unit_test(test_multi_search_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
