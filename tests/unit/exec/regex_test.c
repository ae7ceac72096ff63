/* regex_test.c: goal: match, extract, regexpExtract, extractAll and
 * replaceRegexpOne/All behave as ClickHouse's RE2-based functions for the
 * patterns both engines share: '.' matches newlines, '$' only the end,
 * UTF-8 subjects (also invalid ones), groups and \0-\9 substitutions,
 * empty matches; constant and per-row patterns agree; bad patterns and
 * bad substitutions fail with the engine's message; NULLs stay NULL.
 */
#define ET_STYLE_CALL_SPEC
#include "exec_test_util.h"

static void test_match(void **state) {
    (void)state;
    EQ("1", q("match", "ss", "Hello", "ell"));
    EQ("UInt8", et.type_name);
    EQ("0", q("match", "ss", "Hello", "^ell"));
    EQ("1", q("match", "ss", "a\nb", "a.b"));        /* dot matches newline */
    EQ("0", q("match", "ss", "abc\n", "c$"));        /* $ is the very end */
    EQ("1", q("match", "ss", "abc\n", "c\n$"));
    EQ("1", q("match", "ss", "привет", "^п.ивет$")); /* UTF-8 characters */
    EQ("1", q("match", "ss", "ABC", "(?i)abc"));
    EQ("1", q("match", "ss", "ПРИВЕТ", "(?i)привет"));
    EQ("1", q("match", "ss", "", ""));
    EQ("1", q("match", "ss", "x\xFFy", "y$"));       /* invalid UTF-8 is fine */
    EQ("0", q("match", "ss", "\xFF", "^.$"));
    EQ("1", q("match", "ks", "FixedString(3)", "ab", "^ab\\x00$"));
    EQ("1|0|\\N", q("match", "cs", "Nullable(String)", "abc|xyz|\\N", "^a"));
    EQ("Nullable(UInt8)", et.type_name);
    EQ("1|0|1", q("match", "cc", "String", "abc|abc|abc", "String", "b|^b|c$"));
    EQ("\\N", q("match", "sn", "a", NULL));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 2 of function match",
       q("match", "su", "a", U(1)));
    const char *bad = q("match", "ss", "a", "a(");
    assert_non_null(strstr(bad, "ERR EREGEXP: OptimizedRegularExpression: cannot compile re2: a(, "
                                "error: missing closing parenthesis"));
    bad = q("match", "cc", "String", "a|b", "String", "a|(");
    assert_non_null(strstr(bad, "ERR EREGEXP: OptimizedRegularExpression: cannot compile re2: (,"));
}

static void test_extract(void **state) {
    (void)state;
    EQ("123", q("extract", "ss", "number: 123 and 456", "\\d+"));
    EQ("String", et.type_name);
    EQ("key", q("extract", "ss", "key=val", "(\\w+)=(\\w+)"));
    EQ("", q("extract", "ss", "abc", "x"));
    EQ("", q("extract", "ss", "abc", "b(x)?")); /* the group did not take part */
    EQ("ив", q("extract", "ss", "привет", "р(..)"));
    EQ("1|\\N|", q("extract", "cs", "Nullable(String)", "a1|\\N|b", "\\d"));
    EQ("a|b", q("extract", "cc", "String", "ab|ab", "String", "a|b"));
    EQ("val", q("regexpExtract", "ssi", "key=val", "(\\w+)=(\\w+)", I(2)));
    EQ("key", q("regexpExtract", "ss", "key=val", "(\\w+)=(\\w+)"));
    EQ("key=val", q("REGEXP_EXTRACT", "ssi", "key=val", "(\\w+)=(\\w+)", I(0)));
    EQ("", q("regexpExtract", "ssi", "nothing", "(\\d+)", I(1)));
    EQ("ERR EOUT_OF_BOUND: Index value 3 is out of range, should be in [0, 3)",
       q("regexpExtract", "ssi", "key=val", "(\\w+)=(\\w+)", I(3)));
    EQ("ERR EOUT_OF_BOUND: Index value 1 is out of range, should be in [0, 1)",
       q("regexpExtract", "ss", "abc", "b"));
    EQ("ERR EOUT_OF_BOUND: Index value -1 is out of range, should be in [0, 2)",
       q("regexpExtract", "csc", "String", "a|b", "(.)", "Int8", "1|-1"));
    EQ("ERR EILLEGAL_TYPE: Illegal type String of argument 3 of function regexpExtract",
       q("regexpExtract", "sss", "a", "a", "1"));
}

static void test_extract_all(void **state) {
    (void)state;
    EQ("['123','456']", q("extractAll", "ss", "hello 123 world 456", "[0-9]+"));
    EQ("Array(String)", et.type_name);
    EQ("['a','b']", q("extractAll", "ss", "a=1, b=2", "(\\w)="));
    EQ("[]", q("extractAll", "ss", "abc", "x*")); /* stops at an empty match */
    EQ("[]", q("extractAll", "ss", "", "a"));
    EQ("['при','вет']", q("extractAll", "ss", "привет", "..."));
    EQ("['','']", q("extractAll", "ss", "xbxb", "(a)?b")); /* an unset group gives '' */
    EQ("['','b']", q("extractAll", "ss", "ab", "a|(b)"));
    EQ("['a','b']|[]", q("extractAll", "cs", "String", "a b|", "\\w"));
    EQ("ERR EILLEGAL_TYPE: Illegal type FixedString(2) of argument 1 of function extractAll",
       q("extractAll", "ks", "FixedString(2)", "ab", "a"));
}

static void test_replace_regexp(void **state) {
    (void)state;
    EQ("Hell0, World!", q("replaceRegexpOne", "sss", "Hello, World!", "o", "0"));
    EQ("Hell0, W0rld!", q("replaceRegexpAll", "sss", "Hello, World!", "o", "0"));
    EQ("Hell0, W0rld!", q("REGEXP_REPLACE", "sss", "Hello, World!", "o", "0"));
    EQ("15/01/2020", q("replaceRegexpOne", "sss", "2020-01-15", "(\\d+)-(\\d+)-(\\d+)",
                       "\\3/\\2/\\1"));
    EQ("here: Hello, World!", q("replaceRegexpAll", "sss", "Hello, World!", "^", "here: "));
    EQ("X", q("replaceRegexpAll", "sss", "aaa", "a*", "X"));
    EQ("abbc", q("replaceRegexpAll", "sss", "abc", "b", "\\0\\0"));
    EQ("a\\b", q("replaceRegexpAll", "sss", "a.b", "\\.", "\\\\"));
    EQ("a$b", q("replaceRegexpAll", "sss", "a.b", "\\.", "\\$"));
    EQ("-a-b-c", q("replaceRegexpAll", "sss", "abc", "x*", "-"));
    EQ("-п-р", q("replaceRegexpAll", "sss", "пр", "", "-"));
    EQ("-abc", q("replaceRegexpOne", "sss", "abc", "", "-"));
    EQ("", q("replaceRegexpAll", "sss", "", "^", "x"));
    EQ("a\\", q("replaceRegexpAll", "sss", "ab", "b", "\\"));
    EQ("ac", q("replaceRegexpAll", "sss", "abc", "b(x)?", "\\1"));
    EQ("a_b|\\N|_", q("replaceRegexpAll", "css", "Nullable(String)", "a b|\\N| ", " ", "_"));
    EQ("X|aY", q("replaceRegexpOne", "ccc", "String", "a|ab", "String", "a|b", "String", "X|Y"));
    EQ("ERR EINVAL: Id 2 in replacement string is an invalid substitution, regexp has only 1 "
       "capturing groups", q("replaceRegexpAll", "sss", "abc", "(b)", "\\2"));
    EQ("ERR EINVAL: Id 1 in replacement string is an invalid substitution, regexp has only 0 "
       "capturing groups", q("replaceRegexpOne", "sss", "abc", "b", "\\1"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 3 of function replaceRegexpAll",
       q("REGEXP_REPLACE", "ssu", "a", "a", U(1)));
    const char *bad = q("replaceRegexpAll", "sss", "a", "[", "b");
    assert_non_null(
        strstr(bad, "ERR EREGEXP: OptimizedRegularExpression: cannot compile re2: [, "));
}

/* Many distinct patterns in one column go through the per-thread cache and
 * its eviction; results must not depend on what was cached before. */
static void test_pattern_cache(void **state) {
    (void)state;
    char haystacks[2048] = "", patterns[2048] = "", expected[2048] = "";
    for (int i = 0; i < 40; i++) {
        char h[32], p[32];
        snprintf(h, sizeof(h), "%sx%d", i ? "|" : "", i);
        snprintf(p, sizeof(p), "%s^x%d$", i ? "|" : "", i % 20);
        strcat(haystacks, h);
        strcat(patterns, p);
        strcat(expected, i ? (i < 20 ? "|1" : "|0") : "1");
    }
    EQ(expected, q("match", "cc", "String", haystacks, "String", patterns));
    EQ(expected, q("match", "cc", "String", haystacks, "String", patterns));
}

static void test_count_matches(void **state) {
    (void)state;
    EQ("2", q("countMatches", "ss", "abababa", "aba")); /* non-overlapping */
    EQ("UInt64", et.type_name);
    EQ("3", q("countMatches", "ss", "aaa", "a"));
    EQ("2", q("countMatches", "ss", "foo bar foo", "fo+"));
    EQ("0", q("countMatches", "ss", "abc", ""));   /* an empty match ends the count */
    EQ("0", q("countMatches", "ss", "abc", "x*"));
    EQ("1", q("countMatches", "ss", "aab", "a*"));  /* "aa", then an empty match */
    EQ("3", q("countMatches", "ss", "aaa", "^a")); /* each search starts a new subject */
    EQ("0", q("countMatches", "ss", "", "a"));
    EQ("2", q("countMatches", "ss", "привет пока", "п."));
    EQ("1", q("countMatches", "ss", "FOO foo", "foo"));
    EQ("2", q("countMatchesCaseInsensitive", "ss", "FOO foo", "foo"));
    EQ("2", q("countMatchesCaseInsensitive", "ss", "ПРИВЕТ привет", "привет"));
    EQ("1", q("countMatches", "ks", "FixedString(4)", "ab", "\\x00\\x00"));
    EQ("2|0|\\N", q("countMatches", "cs", "Nullable(String)", "a1b2|xyz|\\N", "\\d"));
    EQ("Nullable(UInt64)", et.type_name);
    EQ("ERR EILLEGAL_COLUMN: Illegal type of argument 2 of function countMatches: expected "
       "constant String", q("countMatches", "sc", "a", "String", "a"));
    EQ("ERR EILLEGAL_TYPE: Illegal type FixedString(1) of argument 2 of function countMatches",
       q("countMatches", "sk", "a", "FixedString(1)", "a"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function countMatches",
       q("countMatches", "us", U(1), "a"));
    const char *bad = q("countMatches", "ss", "a", "(");
    assert_non_null(strstr(bad, "ERR EREGEXP: OptimizedRegularExpression: cannot compile re2: ("));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match),          cmocka_unit_test(test_extract),
        cmocka_unit_test(test_extract_all),    cmocka_unit_test(test_replace_regexp),
        cmocka_unit_test(test_pattern_cache),  cmocka_unit_test(test_count_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
