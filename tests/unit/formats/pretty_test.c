/* pretty_test.c: goal: the human-readable output formats are byte-exact
 * with current ClickHouse writing to a non-terminal (HTTP): Pretty,
 * PrettyCompact(MonoBlock) and PrettySpace (row numbers, grid, right-aligned
 * numbers and dates, ᴺᵁᴸᴸ, display widths, multi-line cells, cut values and
 * names, footer names, the 1000-row limit with its middle cut, totals, the
 * number tip, the fallback to Vertical), Vertical, Markdown, TSKV, Values and
 * Null, over every column type, several batches, selection vectors, empty
 * results and an output buffer that runs out of room. Everything goes
 * through the public fmt_writer API. */
#include "formats_test_util.h"

/* begin (schema = batches[0] or `schema`), every batch, totals (may be
 * NULL), end; returns the output as a malloc'd NUL-terminated string. */
static char *pt_run_opt(const char *format, const ty_batch *schema, ty_batch *const *batches,
                        size_t count, const ty_batch *totals, const fmt_output_options *opt,
                        size_t *n) {
    fmt_kind k = fmt_find(format);
    assert_int_not_equal(k, FMT_UNKNOWN);
    fmt_writer *w = NULL;
    mu_err err;
    mu_buf out;
    mu_buf_init(&out, 0);
    if (fmt_writer_create(k, opt, &w, &err) != 0) fail_msg("create: %s", err.message);
    if (fmt_writer_begin(w, schema ? schema : batches[0], &out, &err) != 0)
        fail_msg("begin: %s", err.message);
    for (size_t i = 0; i < count; i++)
        if (fmt_writer_rows(w, batches[i], &out, &err) != 0) fail_msg("rows: %s", err.message);
    if (totals && fmt_writer_totals(w, totals, &out, &err) != 0)
        fail_msg("totals: %s", err.message);
    if (fmt_writer_end(w, NULL, &out, &err) != 0) fail_msg("end: %s", err.message);
    fmt_writer_destroy(w);
    char *s = malloc(out.length_bytes + 1);
    assert_non_null(s);
    if (out.length_bytes) memcpy(s, out.data, out.length_bytes);
    s[out.length_bytes] = 0;
    if (n) *n = out.length_bytes;
    mu_buf_deinit(&out);
    return s;
}

static void pt_expect_all(const char *format, ty_batch *const *batches, size_t count,
                          const ty_batch *totals, const char *want) {
    size_t n;
    char *got = pt_run_opt(format, NULL, batches, count, totals, NULL, &n);
    if (n != strlen(want) || memcmp(got, want, n) != 0)
        fail_msg("%s: got\n[%s] (%zu bytes), want\n[%s] (%zu bytes)", format, got, n, want,
                 strlen(want));
    free(got);
}

/* One batch, optional totals. */
static void pt_expect(const char *format, ty_batch *b, const ty_batch *totals,
                      const char *want) {
    pt_expect_all(format, &b, 1, totals, want);
}

/* A batch of `rows` rows of one UInt64 column `name` holding from, from+1, ... */
static ty_batch *pt_numbers(const char *name, uint64_t from, uint32_t rows) {
    ty_batch *b = fu_batch(1, (const char *[]){name, "UInt64"});
    mu_err err;
    for (uint32_t i = 0; i < rows; i++) {
        uint64_t v = from + i;
        assert_int_equal(ty_column_append_value(b->columns[0], &v, &err), 0);
    }
    assert_int_equal(ty_batch_seal(b, &err), 0);
    return b;
}

static ty_batch *pt_xs(void) {
    const char *nt[] = {"x", "UInt64", "s", "String"};
    ty_batch *b = fu_batch(2, nt);
    fu_row(b, (const char *[]){"1", "a"});
    fu_row(b, (const char *[]){"22", "bb"});
    return b;
}

static void test_styles(void **state) {
    (void)state;
    ty_batch *b = pt_xs();
    pt_expect("Pretty", b, NULL,
              "   ┏━━━━┳━━━━┓\n"
              "   ┃  x ┃ s  ┃\n"
              "   ┡━━━━╇━━━━┩\n"
              "1. │  1 │ a  │\n"
              "   ├────┼────┤\n"
              "2. │ 22 │ bb │\n"
              "   └────┴────┘\n");
    const char *compact = "   ┌──x─┬─s──┐\n"
                          "1. │  1 │ a  │\n"
                          "2. │ 22 │ bb │\n"
                          "   └────┴────┘\n";
    pt_expect("PrettyCompact", b, NULL, compact);
    pt_expect("PrettyCompactMonoBlock", b, NULL, compact);
    /* Space: a one-space margin before each value, three between columns,
     * every cell padded (trailing spaces included). */
    pt_expect("PrettySpace", b, NULL,
              "     x   s \n"
              "\n"
              "1.   1   a  \n"
              "2.  22   bb \n");
    ty_batch_destroy(b);
}

/* Row numbers are right-aligned in a margin as wide as the last one. */
static void test_row_number_width(void **state) {
    (void)state;
    ty_batch *b = pt_numbers("n", 0, 10);
    char *got = pt_run_opt("PrettyCompact", NULL, &b, 1, NULL, NULL, NULL);
    assert_non_null(strstr(got, "    ┌─n─┐\n 1. │ 0 │\n"));
    assert_non_null(strstr(got, "\n 9. │ 8 │\n10. │ 9 │\n    └───┘\n"));
    free(got);
    ty_batch_destroy(b);
}

/* Numbers, Decimal and dates are aligned right (names too), Bool, strings
 * and the rest left; NULL is ᴺᵁᴸᴸ; floats as ClickHouse prints them. */
static void test_types_alignment(void **state) {
    (void)state;
    const char *nt1[] = {"b", "Bool", "f", "Float64", "g", "Float32", "d", "Decimal(9, 2)"};
    ty_batch *b = fu_batch(4, nt1);
    fu_row(b, (const char *[]){"true", "nan", "-1.5", "2.50"});
    fu_row(b, (const char *[]){"false", "-inf", "1e21", "-0.01"});
    pt_expect("PrettyCompact", b, NULL,
              "   ┌─b─────┬────f─┬────g─┬─────d─┐\n"
              "1. │ true  │  nan │ -1.5 │   2.5 │\n"
              "2. │ false │ -inf │ 1e21 │ -0.01 │\n"
              "   └───────┴──────┴──────┴───────┘\n");
    ty_batch_destroy(b);

    const char *nt2[] = {"d", "Date", "d32", "Date32", "t", "DateTime('UTC')", "t64",
                         "DateTime64(3, 'Asia/Tokyo')"};
    b = fu_batch(4, nt2);
    fu_row(b, (const char *[]){"2020-01-02", "1900-01-01", "2020-01-02 03:04:05",
                               "2020-01-02 03:04:05.678"});
    pt_expect("PrettyCompact", b, NULL,
              "   ┌──────────d─┬────────d32─┬───────────────────t─┬─────────────────────t64─┐\n"
              "1. │ 2020-01-02 │ 1900-01-01 │ 2020-01-02 03:04:05 │ 2020-01-02 03:04:05.678 │\n"
              "   └────────────┴────────────┴─────────────────────┴─────────────────────────┘\n");
    ty_batch_destroy(b);

    const char *nt3[] = {"u", "UUID", "e", "Enum8('a' = 1, 'bb' = 2)", "lc",
                         "LowCardinality(Nullable(String))", "m", "Map(String, UInt8)"};
    b = fu_batch(4, nt3);
    fu_row(b, (const char *[]){"00000000-0000-0000-0000-000000000001", "bb", "x", "{'k':1}"});
    fu_row(b, (const char *[]){"00000000-0000-0000-0000-000000000002", "a", NULL, "{}"});
    pt_expect("PrettyCompact", b, NULL,
              "   ┌─u────────────────────────────────────┬─e──┬─lc───┬─m───────┐\n"
              "1. │ 00000000-0000-0000-0000-000000000001 │ bb │ x    │ {'k':1} │\n"
              "2. │ 00000000-0000-0000-0000-000000000002 │ a  │ ᴺᵁᴸᴸ │ {}      │\n"
              "   └──────────────────────────────────────┴────┴──────┴─────────┘\n");
    ty_batch_destroy(b);

    const char *nt4[] = {"i", "Nullable(Int32)", "a", "Array(Nullable(String))", "z",
                         "Nullable(Nothing)", "i8", "LowCardinality(Int8)"};
    b = fu_batch(4, nt4);
    fu_row(b, (const char *[]){NULL, "['x',NULL,'y\\'z']", NULL, "-128"});
    fu_row(b, (const char *[]){"-7", "[]", NULL, "5"});
    pt_expect("Pretty", b, NULL,
              "   ┏━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━┳━━━━━━┓\n"
              "   ┃    i ┃ a                 ┃ z    ┃   i8 ┃\n"
              "   ┡━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━╇━━━━━━┩\n"
              "1. │ ᴺᵁᴸᴸ │ ['x',NULL,'y\\'z'] │ ᴺᵁᴸᴸ │ -128 │\n"
              "   ├──────┼───────────────────┼──────┼──────┤\n"
              "2. │   -7 │ []                │ ᴺᵁᴸᴸ │    5 │\n"
              "   └──────┴───────────────────┴──────┴──────┘\n");
    ty_batch_destroy(b);
}

/* Strings are written raw; widths count terminal columns: control bytes
 * and NUL take none, CJK two, combining marks none, a tab runs to the next
 * multiple of 8 counted from the start of the line. */
static void test_string_widths(void **state) {
    (void)state;
    const char *nt[] = {"s", "String", "fs", "FixedString(4)", "w", "String"};
    ty_batch *b = fu_batch(3, nt);
    fu_row(b, (const char *[]){"a\x01" "b", "ab", "日本語"});
    fu_row(b, (const char *[]){"e\xcc\x81", "abcd", "\xff"});
    static const char want[] = "   ┌─s──┬─fs───┬─w──────┐\n"
                               "1. │ a\x01" "b │ ab\0\0   │ 日本語 │\n"
                               "2. │ e\xcc\x81  │ abcd │ \xff       │\n"
                               "   └────┴──────┴────────┘\n";
    size_t n;
    char *got = pt_run_opt("PrettyCompact", NULL, &b, 1, NULL, NULL, &n);
    assert_int_equal(n, sizeof want - 1);
    assert_memory_equal(got, want, n);
    free(got);
    ty_batch_destroy(b);

    /* An ANSI escape sequence takes no columns; an empty value none; a cut
     * UTF-8 sequence is re-read from its second byte (as ClickHouse's
     * walk does), so the "b" after it counts twice. */
    b = fu_batch(1, (const char *[]){"s", "String"});
    fu_row(b, (const char *[]){"\x1b[31mred\x1b[0m"});
    fu_row(b, (const char *[]){""});
    fu_row(b, (const char *[]){"\xe2\x94" "ab"});
    pt_expect("PrettyCompact", b, NULL,
              "   ┌─s───┐\n"
              "1. │ \x1b[31mred\x1b[0m │\n"
              "2. │     │\n"
              "3. │ \xe2\x94" "ab │\n"
              "   └─────┘\n");
    ty_batch_destroy(b);

    /* "a\tb" measured at column 5 (margin of 3, "│", space): the tab takes 2. */
    b = fu_batch(1, (const char *[]){"s", "String"});
    fu_row(b, (const char *[]){"a\tb"});
    fu_row(b, (const char *[]){"q"});
    pt_expect("Pretty", b, NULL,
              "   ┏━━━━━━┓\n"
              "   ┃ s    ┃\n"
              "   ┡━━━━━━┩\n"
              "1. │ a\tb │\n"
              "   ├──────┤\n"
              "2. │ q    │\n"
              "   └──────┘\n");
    ty_batch_destroy(b);
}

/* Lines of a value stay in its cell: ↴ ends a line that goes on, ↳ starts
 * the next; shorter cells are padded with blank lines. */
static void test_multiline(void **state) {
    (void)state;
    const char *nt[] = {"s", "String", "x", "UInt8"};
    ty_batch *b = fu_batch(2, nt);
    fu_row(b, (const char *[]){"ab\ncdef\n", "1"});
    fu_row(b, (const char *[]){"x", "2"});
    fu_row(b, (const char *[]){"p\n\nq", "3"});
    pt_expect("PrettyCompact", b, NULL,
              "   ┌─s────┬─x─┐\n"
              "1. │ ab  ↴│ 1 │\n"
              "   │↳cdef↴│   │\n"
              "2. │ x    │ 2 │\n"
              "3. │ p   ↴│ 3 │\n"
              "   │↳    ↴│   │\n"
              "   │↳q    │   │\n"
              "   └──────┴───┘\n");
    ty_batch_destroy(b);
}

/* Columns are padded to at most 250 columns (wider values stick out);
 * values wider than 10000 columns are cut with ⋯ unless the result is one
 * value; a name wider than 28 that is not an identifier is cut in the
 * middle to 24 (or to its column's width when that is wider). */
static void test_cut_values_and_names(void **state) {
    (void)state;
    char *long_value = malloc(10002);
    assert_non_null(long_value);
    memset(long_value, 'x', 10001);
    long_value[10001] = 0;
    ty_batch *b = fu_batch(1, (const char *[]){"s", "String"});
    fu_row(b, (const char *[]){long_value});
    size_t n;
    char *got = pt_run_opt("PrettyCompact", NULL, &b, 1, NULL, NULL, &n);
    /* one value: never cut; the column is 250 wide, the value sticks out */
    assert_int_equal(n, strlen("   ┌─s") + 249 * 3 + strlen("─┐\n") + strlen("1. │ ") + 10001 +
                            strlen(" │\n") + strlen("   └") + 252 * 3 + strlen("┘\n"));
    assert_non_null(strstr(got, "1. │ xxx"));
    assert_non_null(strstr(got, "xxx │\n   └"));
    free(got);
    fu_row(b, (const char *[]){"y"});
    got = pt_run_opt("PrettyCompact", NULL, &b, 1, NULL, NULL, &n);
    char *cut = strstr(got, "1. │ xxx");
    assert_non_null(cut);
    const char *after = cut + strlen("1. │ ") + 10000;
    assert_memory_equal(after, "⋯│\n2. │ y", strlen("⋯│\n2. │ y"));
    assert_non_null(strstr(got, "2. │ y" "                                        "));
    free(got);
    ty_batch_destroy(b);
    free(long_value);

    const char *nt[] = {"plus(multiply(number, 1000000), 7)", "UInt64",
                        "a_very_long_identifier_name_that_is_not_cut", "UInt8"};
    b = fu_batch(2, nt);
    fu_row(b, (const char *[]){"1", "2"});
    pt_expect("PrettyCompact", b, NULL,
              "   ┌─plus(multipl⋯000000), 7)─┬─a_very_long_identifier_name_that_is_not_cut─┐\n"
              "1. │                        1 │                                           2 │\n"
              "   └──────────────────────────┴─────────────────────────────────────────────┘\n");
    pt_expect("Vertical", b, NULL,
              "Row 1:\n──────\n"
              "plus(multipl⋯000000), 7):                    1\n"
              "a_very_long_identifier_name_that_is_not_cut: 2\n");
    ty_batch_destroy(b);
}

/* 50 rows or more repeat the names under the table. */
static void test_footer_names(void **state) {
    (void)state;
    ty_batch *b = pt_numbers("number", 0, 49);
    char *got = pt_run_opt("PrettyCompact", NULL, &b, 1, NULL, NULL, NULL);
    assert_non_null(strstr(got, "49. │     48 │\n    └────────┘\n"));
    free(got);
    ty_batch_destroy(b);
    b = pt_numbers("number", 0, 50);
    got = pt_run_opt("PrettyCompact", NULL, &b, 1, NULL, NULL, NULL);
    assert_non_null(strstr(got, "50. │     49 │\n    └─number─┘\n"));
    free(got);
    got = pt_run_opt("Pretty", NULL, &b, 1, NULL, NULL, NULL);
    assert_non_null(strstr(got, "50. │     49 │\n    ┢━━━━━━━━┪\n    ┃ number ┃\n"
                                "    ┗━━━━━━━━┛\n"));
    free(got);
    got = pt_run_opt("PrettySpace", NULL, &b, 1, NULL, NULL, NULL);
    assert_non_null(strstr(got, "50.      49 \n\n     number\n\n"));
    free(got);
    ty_batch_destroy(b);
}

/* Batches form one table; past 1000 rows the first 500 and the last 500
 * are shown around a ─ ─ ─ line, then "Showed 1000 out of N rows.". */
static void test_limit_over_batches(void **state) {
    (void)state;
    ty_batch *parts[3] = {pt_numbers("n", 0, 700), pt_numbers("n", 700, 900),
                          pt_numbers("n", 1600, 400)};
    char *got = pt_run_opt("PrettyCompact", NULL, parts, 3, NULL, NULL, NULL);
    assert_memory_equal(got, "      ┌────n─┐\n   1. │    0 │\n", strlen("      ┌────n─┐\n"
                                                                    "   1. │    0 │\n"));
    assert_non_null(strstr(got, " 500. │  499 │\n      ─ ─ ─ ─ \n1501. │ 1500 │\n"));
    assert_null(strstr(got, " 501. │"));
    assert_null(strstr(got, "1500. │"));
    const char *end = "2000. │ 1999 │\n      └────n─┘\nShowed 1000 out of 2000 rows.\n";
    assert_string_equal(got + strlen(got) - strlen(end), end);
    free(got);
    got = pt_run_opt("Pretty", NULL, parts, 3, NULL, NULL, NULL);
    assert_non_null(strstr(got, " 500. │  499 │\n      ├──────┤\n      ─ ─ ─ ─ \n"
                                "      ├──────┤\n1501. │ 1500 │\n"));
    free(got);
    got = pt_run_opt("PrettySpace", NULL, parts, 3, NULL, NULL, NULL);
    assert_non_null(strstr(got, " 500.   499 \n      ─ ─ ─\n1501.  1500 \n"));
    const char *space_end = "2000.  1999 \n\n          n\n\n\nShowed 1000 out of 2000 rows.\n";
    assert_string_equal(got + strlen(got) - strlen(space_end), space_end);
    free(got);
    for (int i = 0; i < 3; i++) ty_batch_destroy(parts[i]);

    /* exactly 1000 rows: all shown, and the note all the same */
    ty_batch *b = pt_numbers("n", 0, 1000);
    got = pt_run_opt("PrettyCompact", NULL, &b, 1, NULL, NULL, NULL);
    assert_non_null(strstr(got, " 501. │ 500 │\n"));
    assert_non_null(strstr(got, "Showed 1000 out of 1000 rows.\n"));
    free(got);
    ty_batch_destroy(b);
}

/* The tip after a lone number above one million: ToFixed(2) rounding
 * halves up, units up to quadrillion, not for typical 64-bit hashes, NULL
 * or several rows. */
static void test_number_tip(void **state) {
    (void)state;
    static const struct {
        const char *type, *value, *line;
    } cases[] = {
        {"Float64", "1125000", "1. │ 1125000 │ -- 1.13 million\n"},
        {"UInt64", "999999999", "1. │ 999999999 │ -- 1000.00 million\n"},
        {"Int64", "-12345678", "1. │ -12345678 │ -- -12.35 million\n"},
        {"UInt32", "1000000", "1. │ 1000000 │\n"},
        {"UInt32", "1000001", "1. │ 1000001 │ -- 1.00 million\n"},
        {"UInt64", "1000000000000000000", "1. │ 1000000000000000000 │\n"},
        {"UInt64", "18446744073709551615", "1. │ 18446744073709551615 │\n"},
        {"Float64", "2e19", "1. │ 20000000000000000000 │ -- 20000.00 quadrillion\n"},
        {"Decimal(38, 2)", "12345678.99", "1. │ 12345678.99 │ -- 12.35 million\n"},
        {"Nullable(UInt64)", NULL, "1. │ ᴺᵁᴸᴸ │\n"},
        {"LowCardinality(UInt64)", "2000000000000", "1. │ 2000000000000 │ -- 2.00 trillion\n"},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(cases); i++) {
        ty_batch *b = fu_batch(1, (const char *[]){"x", cases[i].type});
        fu_row(b, (const char *[]){cases[i].value});
        char *got = pt_run_opt("PrettyCompact", NULL, &b, 1, NULL, NULL, NULL);
        if (strstr(got, cases[i].line) == NULL) fail_msg("%s: %s", cases[i].line, got);
        free(got);
        ty_batch_destroy(b);
    }
    ty_batch *b = pt_numbers("x", 5000000, 2);
    char *got = pt_run_opt("PrettyCompact", NULL, &b, 1, NULL, NULL, NULL);
    assert_null(strstr(got, " -- "));
    free(got);
    ty_batch_destroy(b);
}

/* WITH TOTALS: "\nTotals:\n" and a table of its own, after the note. */
static void test_totals(void **state) {
    (void)state;
    const char *nt[] = {"k", "UInt64", "c", "UInt64"};
    ty_batch *b = fu_batch(2, nt);
    fu_row(b, (const char *[]){"0", "1"});
    fu_row(b, (const char *[]){"1", "2"});
    ty_batch *t = fu_batch(2, nt);
    fu_row(t, (const char *[]){"0", "3"});
    pt_expect("PrettyCompact", b, t,
              "   ┌─k─┬─c─┐\n"
              "1. │ 0 │ 1 │\n"
              "2. │ 1 │ 2 │\n"
              "   └───┴───┘\n"
              "\n"
              "Totals:\n"
              "   ┌─k─┬─c─┐\n"
              "1. │ 0 │ 3 │\n"
              "   └───┴───┘\n");
    pt_expect("Pretty", b, t,
              "   ┏━━━┳━━━┓\n   ┃ k ┃ c ┃\n   ┡━━━╇━━━┩\n1. │ 0 │ 1 │\n   ├───┼───┤\n"
              "2. │ 1 │ 2 │\n   └───┴───┘\n\nTotals:\n"
              "   ┏━━━┳━━━┓\n   ┃ k ┃ c ┃\n   ┡━━━╇━━━┩\n1. │ 0 │ 3 │\n   └───┴───┘\n");
    pt_expect("PrettySpace", b, t,
              "    k   c\n\n1.  0   1 \n2.  1   2 \n\nTotals:\n    k   c\n\n1.  0   3 \n");
    pt_expect("Vertical", b, t,
              "Row 1:\n──────\nk: 0\nc: 1\n\nRow 2:\n──────\nk: 1\nc: 2\n\n\n"
              "Totals:\n───────\nk: 0\nc: 3\n");
    pt_expect("TSKV", b, t, "k=0\tc=1\nk=1\tc=2\n\nk=0\tc=3\n");
    pt_expect("Values", b, t, "(0,1),(1,2)");
    pt_expect("Markdown", b, t, "| k | c |\n|-:|-:|\n| 0 | 1 |\n| 1 | 2 |\n");
    /* an empty result still has its totals */
    ty_batch *empty = fu_batch(2, nt);
    mu_err err;
    assert_int_equal(ty_batch_seal(empty, &err), 0);
    pt_expect("PrettyCompact", empty, t,
              "\nTotals:\n   ┌─k─┬─c─┐\n1. │ 0 │ 3 │\n   └───┴───┘\n");
    /* totals after the limit: the note first, the rows already used up */
    ty_batch *many = pt_numbers("k", 0, 1001);
    ty_batch *one = pt_numbers("k", 7, 1);
    char *got = pt_run_opt("PrettyCompact", NULL, &many, 1, one, NULL, NULL);
    const char *end = "Showed 1000 out of 1001 rows.\n\nTotals:\n   ┌─k─┐\n   └───┘\n";
    assert_string_equal(got + strlen(got) - strlen(end), end);
    free(got);
    ty_batch_destroy(many);
    ty_batch_destroy(one);
    ty_batch_destroy(empty);
    ty_batch_destroy(t);
    ty_batch_destroy(b);
}

/* A short table of at least 5 columns that has a multi-line value (or is
 * 250 columns wide) is written as Vertical, its totals too. */
static void test_fallback_to_vertical(void **state) {
    (void)state;
    const char *nt[] = {"a", "UInt8", "b", "UInt8", "c", "UInt8", "d", "UInt8", "e", "String"};
    ty_batch *b = fu_batch(5, nt);
    fu_row(b, (const char *[]){"1", "2", "3", "4", "x\ny"});
    fu_row(b, (const char *[]){"5", "6", "7", "8", "z"});
    ty_batch *t = fu_batch(5, nt);
    fu_row(t, (const char *[]){"0", "0", "0", "0", "t"});
    pt_expect("PrettyCompact", b, t,
              "Row 1:\n──────\na: 1\nb: 2\nc: 3\nd: 4\ne: x\ny\n\n"
              "Row 2:\n──────\na: 5\nb: 6\nc: 7\nd: 8\ne: z\n\n"
              "Totals:\nRow 3:\n──────\na: 0\nb: 0\nc: 0\nd: 0\ne: t\n");
    ty_batch_destroy(t);
    ty_batch_destroy(b);

    /* four columns stay a table */
    b = fu_batch(4, nt);
    fu_row(b, (const char *[]){"1", "2", "3", "4"});
    char *got = pt_run_opt("PrettyCompact", NULL, &b, 1, NULL, NULL, NULL);
    assert_non_null(strstr(got, "┌─a─┬─b─┬─c─┬─d─┐"));
    free(got);
    ty_batch_destroy(b);

    /* wide: five columns summing to 250 */
    const char *wide[] = {"a", "String", "b", "String", "c", "String", "d", "String", "e",
                          "String"};
    b = fu_batch(5, wide);
    char v[51];
    memset(v, 'v', 50);
    v[50] = 0;
    fu_row(b, (const char *[]){v, v, v, v, v});
    got = pt_run_opt("Pretty", NULL, &b, 1, NULL, NULL, NULL);
    assert_memory_equal(got, "Row 1:\n──────\na: vvv", strlen("Row 1:\n──────\na: vvv"));
    free(got);
    ty_batch_destroy(b);
}

/* Vertical: names padded to the widest, ᴺᵁᴸᴸ, raw strings, tips after
 * large numbers, the rule one dash longer from row 9 on, 1000 rows. */
static void test_vertical(void **state) {
    (void)state;
    const char *nt[] = {"number", "UInt64", "s", "Nullable(String)", "arr", "Array(String)"};
    ty_batch *b = fu_batch(3, nt);
    fu_row(b, (const char *[]){"0", "a\tb'", "['x\\'y']"});
    fu_row(b, (const char *[]){"12345678", NULL, "[]"});
    pt_expect("Vertical", b, NULL,
              "Row 1:\n──────\nnumber: 0\ns:      a\tb'\narr:    ['x\\'y']\n\n"
              "Row 2:\n──────\nnumber: 12345678 -- 12.35 million\ns:      ᴺᵁᴸᴸ\narr:    []\n");
    ty_batch_destroy(b);

    b = pt_numbers("n", 0, 1002);
    char *got = pt_run_opt("Vertical", NULL, &b, 1, NULL, NULL, NULL);
    assert_non_null(strstr(got, "Row 8:\n──────\nn: 7\n\nRow 9:\n───────\nn: 8\n"));
    assert_non_null(strstr(got, "Row 99:\n────────\n"));
    const char *end = "Row 1000:\n─────────\nn: 999\n\nShowed first 1000.\n";
    assert_string_equal(got + strlen(got) - strlen(end), end);
    free(got);
    ty_batch *t = pt_numbers("n", 5, 1);
    got = pt_run_opt("Vertical", NULL, &b, 1, t, NULL, NULL);
    end = "n: 999\n\nShowed first 1000.\n\n\nTotals:\n───────\nn: 5\n";
    assert_string_equal(got + strlen(got) - strlen(end), end);
    free(got);
    ty_batch_destroy(t);
    ty_batch_destroy(b);
}

/* Markdown: the header even for no rows, |:-| or |-:| per column, names
 * and values escaped as TSV, NULL as \N, composites as they are. */
static void test_markdown(void **state) {
    (void)state;
    const char *nt[] = {"n|x'", "Int32", "s", "Nullable(String)", "a", "Array(String)", "d",
                        "Date", "b", "Bool"};
    ty_batch *b = fu_batch(5, nt);
    mu_err err;
    assert_int_equal(ty_batch_seal(b, &err), 0);
    const char *header = "| n|x\\' | s | a | d | b |\n|-:|:-|:-|-:|:-|\n";
    pt_expect("Markdown", b, NULL, header);
    pt_expect("MD", b, NULL, header);
    fu_row(b, (const char *[]){"-1", "a\tb\\c'|", "['q\\'r']", "2020-01-02", "true"});
    fu_row(b, (const char *[]){"2", NULL, "[]", "1970-01-01", "false"});
    pt_expect("Markdown", b, NULL,
              "| n|x\\' | s | a | d | b |\n|-:|:-|:-|-:|:-|\n"
              "| -1 | a\\tb\\\\c\\'| | ['q\\'r'] | 2020-01-02 | true |\n"
              "| 2 | \\N | [] | 1970-01-01 | false |\n");
    ty_batch_destroy(b);
}

/* TSKV: name=value pairs, '=' and control bytes of names escaped, values
 * as TSV (quote escaped), NULL as \N. */
static void test_tskv(void **state) {
    (void)state;
    const char *nt[] = {"a=b\tc'd", "UInt8", "s", "String", "n", "Nullable(Nothing)", "m",
                        "Map(String, Nullable(UInt8))", "u", "UUID"};
    ty_batch *b = fu_batch(5, nt);
    fu_row(b, (const char *[]){"1", "x=y\tz'w\\\n\r\b\f", NULL, "{'k':NULL}",
                               "61f0c404-5cb3-11e7-907b-a6006ad3dba0"});
    pt_expect("TSKV", b, NULL,
              "a\\=b\\tc'd=1\ts=x=y\\tz\\'w\\\\\\n\\r\\b\\f\tn=\\N\tm={'k':NULL}\t"
              "u=61f0c404-5cb3-11e7-907b-a6006ad3dba0\n");
    ty_batch_destroy(b);
    /* a NUL in a FixedString, an enum, a date time with its zone */
    const char *nt2[] = {"f", "FixedString(2)", "e", "Enum16('x y' = -5)", "t",
                         "DateTime('Asia/Tokyo')"};
    b = fu_batch(3, nt2);
    fu_row(b, (const char *[]){"a", "x y", "2020-01-02 03:04:05"});
    pt_expect("TSKV", b, NULL, "f=a\\0\te=x y\tt=2020-01-02 03:04:05\n");
    ty_batch_destroy(b);
}

/* Values: rows joined by ',' with no line feed; strings, dates, UUIDs and
 * enum names single-quoted and escaped; NULL; composites; the trailing
 * zeros option; the comma carries across batches. */
static void test_values(void **state) {
    (void)state;
    const char *nt[] = {"s", "String", "n", "Nullable(Int64)", "a", "Array(Nullable(String))",
                        "d", "Date32", "t", "DateTime64(2, 'UTC')", "m", "Map(String, UInt8)",
                        "dec", "Decimal(10, 3)", "e", "Enum8('a' = 1)", "b", "Bool", "f",
                        "Float32"};
    ty_batch *b = fu_batch(10, nt);
    fu_row(b, (const char *[]){"a'b\\\n\t", NULL, "[NULL,'x']", "2020-01-02",
                               "2020-01-02 03:04:05.60", "{'k':1}", "1.500", "a", "true", "inf"});
    ty_batch *c = fu_batch(10, nt);
    fu_row(c, (const char *[]){"", "-9223372036854775808", "[]", "1900-01-01",
                               "1970-01-01 00:00:00.00", "{}", "-0.001", "a", "false", "-0.5"});
    ty_batch *both[2] = {b, c};
    pt_expect_all("Values", both, 2, NULL,
                  "('a\\'b\\\\\\n\\t',NULL,[NULL,'x'],'2020-01-02','2020-01-02 03:04:05.60',"
                  "{'k':1},1.5,'a',true,inf),"
                  "('',-9223372036854775808,[],'1900-01-01','1970-01-01 00:00:00.00',{},-0.001,"
                  "'a',false,-0.5)");
    fmt_output_options zeros = {.quote_64bit_integers = true, .decimal_trailing_zeros = true};
    char *got = pt_run_opt("Values", NULL, both, 2, NULL, &zeros, NULL);
    assert_non_null(strstr(got, "{'k':1},1.500,'a'"));
    free(got);
    ty_batch_destroy(b);
    ty_batch_destroy(c);
}

/* Nothing for no rows (but Markdown's header); Null never writes. */
static void test_empty_and_null(void **state) {
    (void)state;
    const char *nt[] = {"x", "UInt64", "s", "String"};
    ty_batch *b = fu_batch(2, nt);
    mu_err err;
    assert_int_equal(ty_batch_seal(b, &err), 0);
    static const char *const silent[] = {"Pretty", "PrettyCompact", "PrettyCompactMonoBlock",
                                         "PrettySpace", "Vertical", "TSKV", "Values", "Null"};
    for (size_t i = 0; i < MU_ARRAY_LEN(silent); i++) {
        pt_expect(silent[i], b, NULL, "");             /* one empty batch */
        size_t n;
        char *got = pt_run_opt(silent[i], b, NULL, 0, NULL, NULL, &n); /* no batch at all */
        assert_int_equal(n, 0);
        free(got);
        assert_true(fmt_can_write(fmt_find(silent[i])));
    }
    ty_batch *full = pt_xs();
    ty_batch *t = pt_xs();
    pt_expect("Null", full, t, "");
    ty_batch_destroy(t);
    ty_batch_destroy(full);
    ty_batch_destroy(b);
}

/* The selection vector picks and orders the rows; duplicate names are fine. */
static void test_selection(void **state) {
    (void)state;
    const char *nt[] = {"x", "UInt64"};
    ty_batch *b = fu_batch(1, nt);
    fu_row(b, (const char *[]){"1"});
    fu_row(b, (const char *[]){"22"});
    fu_row(b, (const char *[]){"333"});
    mu_err err;
    assert_int_equal(ty_batch_set_selection(b, (const uint32_t[]){2, 0}, 2, &err), 0);
    pt_expect("PrettyCompact", b, NULL, "   ┌───x─┐\n1. │ 333 │\n2. │   1 │\n   └─────┘\n");
    pt_expect("Values", b, NULL, "(333),(1)");
    pt_expect("TSKV", b, NULL, "x=333\nx=1\n");
    pt_expect("Markdown", b, NULL, "| x |\n|-:|\n| 333 |\n| 1 |\n");
    pt_expect("Vertical", b, NULL, "Row 1:\n──────\nx: 333\n\nRow 2:\n──────\nx: 1\n");
    ty_batch_destroy(b);

    /* SELECT 1 AS a, 2 AS a: equal names, as ClickHouse allows */
    ty_batch *d;
    assert_int_equal(ty_batch_create(NULL, &d, &err), 0);
    for (int i = 0; i < 2; i++) {
        ty_column *c;
        assert_int_equal(ty_column_create(ty_type_builtin(TY_UINT8), NULL, &c, &err), 0);
        uint8_t v = (uint8_t)(i + 1);
        assert_int_equal(ty_column_append_value(c, &v, &err), 0);
        assert_int_equal(ty_batch_add_column_take(d, "a", c, &err), 0);
    }
    assert_int_equal(ty_batch_seal(d, &err), 0);
    pt_expect("PrettyCompact", d, NULL, "   ┌─a─┬─a─┐\n1. │ 1 │ 2 │\n   └───┴───┘\n");
    ty_batch_destroy(d);
}

/* An output buffer with a size limit: the failure is reported (never a
 * crash), by rows() for the streaming kinds and by end() for Pretty. */
static void test_output_limit(void **state) {
    (void)state;
    ty_batch *b = pt_numbers("number", 0, 100);
    static const char *const kinds[] = {"Pretty", "PrettySpace", "Vertical", "Markdown",
                                        "TSKV", "Values"};
    for (size_t i = 0; i < MU_ARRAY_LEN(kinds); i++) {
        fmt_writer *w;
        mu_err err;
        mu_buf out;
        mu_buf_init(&out, 64);
        assert_int_equal(fmt_writer_create(fmt_find(kinds[i]), NULL, &w, &err), 0);
        int rc = fmt_writer_begin(w, b, &out, &err);
        if (rc == 0) rc = fmt_writer_rows(w, b, &out, &err);
        if (rc == 0) rc = fmt_writer_end(w, NULL, &out, &err);
        assert_int_equal(rc, MU_ETOO_LARGE);
        assert_true(out.length_bytes <= 64);
        fmt_writer_destroy(w);
        mu_buf_deinit(&out);
    }
    ty_batch_destroy(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_styles),
        cmocka_unit_test(test_row_number_width),
        cmocka_unit_test(test_types_alignment),
        cmocka_unit_test(test_string_widths),
        cmocka_unit_test(test_multiline),
        cmocka_unit_test(test_cut_values_and_names),
        cmocka_unit_test(test_footer_names),
        cmocka_unit_test(test_limit_over_batches),
        cmocka_unit_test(test_number_tip),
        cmocka_unit_test(test_totals),
        cmocka_unit_test(test_fallback_to_vertical),
        cmocka_unit_test(test_vertical),
        cmocka_unit_test(test_markdown),
        cmocka_unit_test(test_tskv),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_empty_and_null),
        cmocka_unit_test(test_selection),
        cmocka_unit_test(test_output_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
