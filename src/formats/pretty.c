/* pretty.c: the human-readable output formats, written byte-exactly as
 * current ClickHouse writes them to a client that is not a terminal (the
 * HTTP interface): Pretty, PrettyCompact, PrettyCompactMonoBlock,
 * PrettySpace, Vertical, Markdown (MD), TSKV, Values and Null. Output only.
 * It owns the per-result writer state: for the Pretty family copies of the
 * rows that can still be displayed (at most 1.5 times
 * output_format_pretty_max_rows, see "Pretty" below), for the others only
 * names and counters. Specification: ClickHouse's PrettyBlockOutputFormat,
 * VerticalRowOutputFormat, MarkdownRowOutputFormat, TSKVRowOutputFormat,
 * ValuesRowOutputFormat, PrettyFormatHelpers and UTF8::computeWidth (read
 * for the behaviour; no code was taken).
 */

/* The defaults of current ClickHouse's format settings that shape the output:
 *
 *   output_format_pretty_color = auto          no ANSI escapes over HTTP
 *   output_format_pretty_row_numbers = 1       "1. " before each row
 *   output_format_pretty_max_rows = 1000       then "Showed N out of M rows."
 *   output_format_pretty_max_column_pad_width = 250, _max_value_width = 10000
 *   output_format_pretty_max_value_width_apply_for_single_value = 0
 *   output_format_pretty_max_column_name_width_cut_to = 24, _min_chars_to_cut = 4
 *   output_format_pretty_display_footer_column_names = 1, _min_rows = 50
 *   output_format_pretty_multiline_fields = 1  lines of a value stay in the cell
 *   output_format_pretty_fallback_to_vertical = 1 (at most 10 rows, at least 5
 *     columns, total width 250 or a line feed in a value)
 *   output_format_pretty_single_large_number_tip_threshold = 1000000
 *   output_format_pretty_squash_consecutive_ms = 50: consecutive blocks are
 *     glued into one table, so every Pretty kind prints the whole result as
 *     one table, as ClickHouse does when the blocks arrive within 50 ms.
 *
 * Differences from ClickHouse 18.16 (current ClickHouse is followed):
 *   - row numbers before each row and a blank margin before the grid lines;
 *   - the limit is 1000 rows (was 10000), shown as the first 500 and the last
 *     500 rows with a "─ ─ ─" line between them, then "Showed 1000 out of
 *     M rows." (18.16: the first 10000 and "Showed first 10000.");
 *   - a value with line feeds stays inside its cell, its lines marked with ↴
 *     and ↳ (18.16 wrote the line feeds raw, breaking the grid);
 *   - 50 rows or more repeat the column names under the table;
 *   - column names are bold and the output coloured only on a terminal
 *     (18.16 coloured HTTP output too);
 *   - PrettySpace puts a margin of one space before each value and pads the
 *     last column (18.16 wrote neither);
 *   - long column names that are not identifiers are cut in the middle (⋯);
 *   - a lone number above one million gets a " -- 12.35 million" tip;
 *   - Decimal trailing zeros are dropped (output_format_decimal_trailing_zeros).
 * Deliberate deviations from current ClickHouse: the squashing above is
 * total (ClickHouse starts a new table when a block arrives more than 50 ms
 * after the previous one); Vertical writes control characters as they are
 * (the newest development version draws them as Unicode control pictures,
 * not in a release the settings table of this port knows); the character
 * width table follows widecharwidth's rules over Unicode 14 (emoji before
 * Unicode 11 are 1 column, noncharacters 0), which ClickHouse's copy of that
 * table may place differently for rare code points.
 */
#include "formats/formats_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PR_MAX_ROWS 1000u             /* output_format_pretty_max_rows */
#define PR_HEAD_ROWS ((PR_MAX_ROWS + 1) / 2) /* rows shown before the cut */
#define PR_TAIL_ROWS (PR_MAX_ROWS / 2) /* rows shown after the cut */
#define PR_PAD_WIDTH_MAX 250u         /* output_format_pretty_max_column_pad_width */
#define PR_VALUE_WIDTH_MAX 10000u     /* output_format_pretty_max_value_width */
#define PR_NAME_CUT_TO 24u            /* output_format_pretty_max_column_name_width_cut_to */
#define PR_NAME_MIN_CUT 4u            /* ..._max_column_name_width_min_chars_to_cut */
#define PR_FOOTER_MIN_ROWS 50u        /* ..._display_footer_column_names_min_rows */
#define PR_FALLBACK_ROWS_MAX 10u      /* ..._fallback_to_vertical_max_rows_per_chunk */
#define PR_FALLBACK_COLUMNS_MIN 5u    /* ..._fallback_to_vertical_min_columns */
#define PR_FALLBACK_WIDTH_MIN 250u    /* ..._fallback_to_vertical_min_table_width */
#define PR_TIP_THRESHOLD 1000000.0    /* ..._single_large_number_tip_threshold */

_Static_assert(PR_HEAD_ROWS + PR_TAIL_ROWS == PR_MAX_ROWS, "head and tail make the limit");

#define PR_NULL "\xE1\xB4\xBA\xE1\xB5\x81\xE1\xB4\xB8\xE1\xB4\xB8" /* ᴺᵁᴸᴸ */
#define PR_ELLIPSIS "\xE2\x8B\xAF"                                /* ⋯ */
#define PR_LINE_FEED "\xE2\x86\xB4"                               /* ↴ */
#define PR_CONTINUATION "\xE2\x86\xB3"                            /* ↳ */
#define PR_DASH "\xE2\x94\x80"                                    /* ─ */

/* ------------------------------------------------------------------ */
/* Display width of UTF-8 text (ClickHouse's UTF8::computeWidth)        */
/* ------------------------------------------------------------------ */

typedef struct pr_range {
    uint32_t first, last;
} pr_range;

/* Code points from U+0080 up that take no column or two columns, derived
 * from Unicode 14 (UnicodeData categories, EastAsianWidth, the emoji
 * presentation property) by widecharwidth's rules as ClickHouse maps them:
 * controls, format characters, separators, combining marks, Hangul
 * medial/final jamo, noncharacters and unassigned code points are 0; East
 * Asian wide and fullwidth characters (with the CJK blocks and planes 2-3
 * whole) and emoji presented as pictures since Unicode 11 are 2. Everything
 * else (ambiguous and private-use characters included) is 1. */
static const pr_range pr_zero_width[] = {
    {0x80, 0x9F}, {0xAD, 0xAD}, {0x300, 0x36F}, {0x378, 0x379}, {0x380, 0x383}, {0x38B, 0x38B},
    {0x38D, 0x38D}, {0x3A2, 0x3A2}, {0x483, 0x489}, {0x530, 0x530}, {0x557, 0x558}, {0x58B, 0x58C},
    {0x590, 0x5BD}, {0x5BF, 0x5BF}, {0x5C1, 0x5C2}, {0x5C4, 0x5C5}, {0x5C7, 0x5CF}, {0x5EB, 0x5EE},
    {0x5F5, 0x605}, {0x610, 0x61A}, {0x61C, 0x61C}, {0x64B, 0x65F}, {0x670, 0x670}, {0x6D6, 0x6DD},
    {0x6DF, 0x6E4}, {0x6E7, 0x6E8}, {0x6EA, 0x6ED}, {0x70E, 0x70F}, {0x711, 0x711}, {0x730, 0x74C},
    {0x7A6, 0x7B0}, {0x7B2, 0x7BF}, {0x7EB, 0x7F3}, {0x7FB, 0x7FD}, {0x816, 0x819}, {0x81B, 0x823},
    {0x825, 0x827}, {0x829, 0x82F}, {0x83F, 0x83F}, {0x859, 0x85D}, {0x85F, 0x85F}, {0x86B, 0x86F},
    {0x88F, 0x89F}, {0x8CA, 0x903}, {0x93A, 0x93C}, {0x93E, 0x94F}, {0x951, 0x957}, {0x962, 0x963},
    {0x981, 0x984}, {0x98D, 0x98E}, {0x991, 0x992}, {0x9A9, 0x9A9}, {0x9B1, 0x9B1}, {0x9B3, 0x9B5},
    {0x9BA, 0x9BC}, {0x9BE, 0x9CD}, {0x9CF, 0x9DB}, {0x9DE, 0x9DE}, {0x9E2, 0x9E5}, {0x9FE, 0xA04},
    {0xA0B, 0xA0E}, {0xA11, 0xA12}, {0xA29, 0xA29}, {0xA31, 0xA31}, {0xA34, 0xA34}, {0xA37, 0xA37},
    {0xA3A, 0xA58}, {0xA5D, 0xA5D}, {0xA5F, 0xA65}, {0xA70, 0xA71}, {0xA75, 0xA75}, {0xA77, 0xA84},
    {0xA8E, 0xA8E}, {0xA92, 0xA92}, {0xAA9, 0xAA9}, {0xAB1, 0xAB1}, {0xAB4, 0xAB4}, {0xABA, 0xABC},
    {0xABE, 0xACF}, {0xAD1, 0xADF}, {0xAE2, 0xAE5}, {0xAF2, 0xAF8}, {0xAFA, 0xB04}, {0xB0D, 0xB0E},
    {0xB11, 0xB12}, {0xB29, 0xB29}, {0xB31, 0xB31}, {0xB34, 0xB34}, {0xB3A, 0xB3C}, {0xB3E, 0xB5B},
    {0xB5E, 0xB5E}, {0xB62, 0xB65}, {0xB78, 0xB82}, {0xB84, 0xB84}, {0xB8B, 0xB8D}, {0xB91, 0xB91},
    {0xB96, 0xB98}, {0xB9B, 0xB9B}, {0xB9D, 0xB9D}, {0xBA0, 0xBA2}, {0xBA5, 0xBA7}, {0xBAB, 0xBAD},
    {0xBBA, 0xBCF}, {0xBD1, 0xBE5}, {0xBFB, 0xC04}, {0xC0D, 0xC0D}, {0xC11, 0xC11}, {0xC29, 0xC29},
    {0xC3A, 0xC3C}, {0xC3E, 0xC57}, {0xC5B, 0xC5C}, {0xC5E, 0xC5F}, {0xC62, 0xC65}, {0xC70, 0xC76},
    {0xC81, 0xC83}, {0xC8D, 0xC8D}, {0xC91, 0xC91}, {0xCA9, 0xCA9}, {0xCB4, 0xCB4}, {0xCBA, 0xCBC},
    {0xCBE, 0xCDC}, {0xCDF, 0xCDF}, {0xCE2, 0xCE5}, {0xCF0, 0xCF0}, {0xCF3, 0xD03}, {0xD0D, 0xD0D},
    {0xD11, 0xD11}, {0xD3B, 0xD3C}, {0xD3E, 0xD4D}, {0xD50, 0xD53}, {0xD57, 0xD57}, {0xD62, 0xD65},
    {0xD80, 0xD84}, {0xD97, 0xD99}, {0xDB2, 0xDB2}, {0xDBC, 0xDBC}, {0xDBE, 0xDBF}, {0xDC7, 0xDE5},
    {0xDF0, 0xDF3}, {0xDF5, 0xE00}, {0xE31, 0xE31}, {0xE34, 0xE3E}, {0xE47, 0xE4E}, {0xE5C, 0xE80},
    {0xE83, 0xE83}, {0xE85, 0xE85}, {0xE8B, 0xE8B}, {0xEA4, 0xEA4}, {0xEA6, 0xEA6}, {0xEB1, 0xEB1},
    {0xEB4, 0xEBC}, {0xEBE, 0xEBF}, {0xEC5, 0xEC5}, {0xEC7, 0xECF}, {0xEDA, 0xEDB}, {0xEE0, 0xEFF},
    {0xF18, 0xF19}, {0xF35, 0xF35}, {0xF37, 0xF37}, {0xF39, 0xF39}, {0xF3E, 0xF3F}, {0xF48, 0xF48},
    {0xF6D, 0xF84}, {0xF86, 0xF87}, {0xF8D, 0xFBD}, {0xFC6, 0xFC6}, {0xFCD, 0xFCD}, {0xFDB, 0xFFF},
    {0x102B, 0x103E}, {0x1056, 0x1059}, {0x105E, 0x1060}, {0x1062, 0x1064}, {0x1067, 0x106D},
    {0x1071, 0x1074}, {0x1082, 0x108D}, {0x108F, 0x108F}, {0x109A, 0x109D}, {0x10C6, 0x10C6},
    {0x10C8, 0x10CC}, {0x10CE, 0x10CF}, {0x1160, 0x11FF}, {0x1249, 0x1249}, {0x124E, 0x124F},
    {0x1257, 0x1257}, {0x1259, 0x1259}, {0x125E, 0x125F}, {0x1289, 0x1289}, {0x128E, 0x128F},
    {0x12B1, 0x12B1}, {0x12B6, 0x12B7}, {0x12BF, 0x12BF}, {0x12C1, 0x12C1}, {0x12C6, 0x12C7},
    {0x12D7, 0x12D7}, {0x1311, 0x1311}, {0x1316, 0x1317}, {0x135B, 0x135F}, {0x137D, 0x137F},
    {0x139A, 0x139F}, {0x13F6, 0x13F7}, {0x13FE, 0x13FF}, {0x169D, 0x169F}, {0x16F9, 0x16FF},
    {0x1712, 0x171E}, {0x1732, 0x1734}, {0x1737, 0x173F}, {0x1752, 0x175F}, {0x176D, 0x176D},
    {0x1771, 0x177F}, {0x17B4, 0x17D3}, {0x17DD, 0x17DF}, {0x17EA, 0x17EF}, {0x17FA, 0x17FF},
    {0x180B, 0x180F}, {0x181A, 0x181F}, {0x1879, 0x187F}, {0x1885, 0x1886}, {0x18A9, 0x18A9},
    {0x18AB, 0x18AF}, {0x18F6, 0x18FF}, {0x191F, 0x193F}, {0x1941, 0x1943}, {0x196E, 0x196F},
    {0x1975, 0x197F}, {0x19AC, 0x19AF}, {0x19CA, 0x19CF}, {0x19DB, 0x19DD}, {0x1A17, 0x1A1D},
    {0x1A55, 0x1A7F}, {0x1A8A, 0x1A8F}, {0x1A9A, 0x1A9F}, {0x1AAE, 0x1B04}, {0x1B34, 0x1B44},
    {0x1B4D, 0x1B4F}, {0x1B6B, 0x1B73}, {0x1B7F, 0x1B82}, {0x1BA1, 0x1BAD}, {0x1BE6, 0x1BFB},
    {0x1C24, 0x1C3A}, {0x1C4A, 0x1C4C}, {0x1C89, 0x1C8F}, {0x1CBB, 0x1CBC}, {0x1CC8, 0x1CD2},
    {0x1CD4, 0x1CE8}, {0x1CED, 0x1CED}, {0x1CF4, 0x1CF4}, {0x1CF7, 0x1CF9}, {0x1CFB, 0x1CFF},
    {0x1DC0, 0x1DFF}, {0x1F16, 0x1F17}, {0x1F1E, 0x1F1F}, {0x1F46, 0x1F47}, {0x1F4E, 0x1F4F},
    {0x1F58, 0x1F58}, {0x1F5A, 0x1F5A}, {0x1F5C, 0x1F5C}, {0x1F5E, 0x1F5E}, {0x1F7E, 0x1F7F},
    {0x1FB5, 0x1FB5}, {0x1FC5, 0x1FC5}, {0x1FD4, 0x1FD5}, {0x1FDC, 0x1FDC}, {0x1FF0, 0x1FF1},
    {0x1FF5, 0x1FF5}, {0x1FFF, 0x1FFF}, {0x200B, 0x200F}, {0x2028, 0x202E}, {0x2060, 0x206F},
    {0x2072, 0x2073}, {0x208F, 0x208F}, {0x209D, 0x209F}, {0x20C1, 0x20FF}, {0x218C, 0x218F},
    {0x2427, 0x243F}, {0x244B, 0x245F}, {0x2B74, 0x2B75}, {0x2B96, 0x2B96}, {0x2CEF, 0x2CF1},
    {0x2CF4, 0x2CF8}, {0x2D26, 0x2D26}, {0x2D28, 0x2D2C}, {0x2D2E, 0x2D2F}, {0x2D68, 0x2D6E},
    {0x2D71, 0x2D7F}, {0x2D97, 0x2D9F}, {0x2DA7, 0x2DA7}, {0x2DAF, 0x2DAF}, {0x2DB7, 0x2DB7},
    {0x2DBF, 0x2DBF}, {0x2DC7, 0x2DC7}, {0x2DCF, 0x2DCF}, {0x2DD7, 0x2DD7}, {0x2DDF, 0x2DFF},
    {0x2E5E, 0x2E7F}, {0x2E9A, 0x2E9A}, {0x2EF4, 0x2EFF}, {0x2FD6, 0x2FEF}, {0x2FFC, 0x2FFF},
    {0x302A, 0x302F}, {0x3040, 0x3040}, {0x3097, 0x309A}, {0x3100, 0x3104}, {0x3130, 0x3130},
    {0x318F, 0x318F}, {0x31E4, 0x31EF}, {0x321F, 0x321F}, {0xA48D, 0xA48F}, {0xA4C7, 0xA4CF},
    {0xA62C, 0xA63F}, {0xA66F, 0xA672}, {0xA674, 0xA67D}, {0xA69E, 0xA69F}, {0xA6F0, 0xA6F1},
    {0xA6F8, 0xA6FF}, {0xA7CB, 0xA7CF}, {0xA7D2, 0xA7D2}, {0xA7D4, 0xA7D4}, {0xA7DA, 0xA7F1},
    {0xA802, 0xA802}, {0xA806, 0xA806}, {0xA80B, 0xA80B}, {0xA823, 0xA827}, {0xA82C, 0xA82F},
    {0xA83A, 0xA83F}, {0xA878, 0xA881}, {0xA8B4, 0xA8CD}, {0xA8DA, 0xA8F1}, {0xA8FF, 0xA8FF},
    {0xA926, 0xA92D}, {0xA947, 0xA95E}, {0xA97D, 0xA983}, {0xA9B3, 0xA9C0}, {0xA9CE, 0xA9CE},
    {0xA9DA, 0xA9DD}, {0xA9E5, 0xA9E5}, {0xA9FF, 0xA9FF}, {0xAA29, 0xAA3F}, {0xAA43, 0xAA43},
    {0xAA4C, 0xAA4F}, {0xAA5A, 0xAA5B}, {0xAA7B, 0xAA7D}, {0xAAB0, 0xAAB0}, {0xAAB2, 0xAAB4},
    {0xAAB7, 0xAAB8}, {0xAABE, 0xAABF}, {0xAAC1, 0xAAC1}, {0xAAC3, 0xAADA}, {0xAAEB, 0xAAEF},
    {0xAAF5, 0xAB00}, {0xAB07, 0xAB08}, {0xAB0F, 0xAB10}, {0xAB17, 0xAB1F}, {0xAB27, 0xAB27},
    {0xAB2F, 0xAB2F}, {0xAB6C, 0xAB6F}, {0xABE3, 0xABEA}, {0xABEC, 0xABEF}, {0xABFA, 0xABFF},
    {0xD7A4, 0xDFFF}, {0xFB07, 0xFB12}, {0xFB18, 0xFB1C}, {0xFB1E, 0xFB1E}, {0xFB37, 0xFB37},
    {0xFB3D, 0xFB3D}, {0xFB3F, 0xFB3F}, {0xFB42, 0xFB42}, {0xFB45, 0xFB45}, {0xFBC3, 0xFBD2},
    {0xFD90, 0xFD91}, {0xFDC8, 0xFDCE}, {0xFDD0, 0xFDEF}, {0xFE00, 0xFE0F}, {0xFE1A, 0xFE2F},
    {0xFE53, 0xFE53}, {0xFE67, 0xFE67}, {0xFE6C, 0xFE6F}, {0xFE75, 0xFE75}, {0xFEFD, 0xFF00},
    {0xFFBF, 0xFFC1}, {0xFFC8, 0xFFC9}, {0xFFD0, 0xFFD1}, {0xFFD8, 0xFFD9}, {0xFFDD, 0xFFDF},
    {0xFFE7, 0xFFE7}, {0xFFEF, 0xFFFB}, {0xFFFE, 0xFFFF}, {0x1000C, 0x1000C}, {0x10027, 0x10027},
    {0x1003B, 0x1003B}, {0x1003E, 0x1003E}, {0x1004E, 0x1004F}, {0x1005E, 0x1007F},
    {0x100FB, 0x100FF}, {0x10103, 0x10106}, {0x10134, 0x10136}, {0x1018F, 0x1018F},
    {0x1019D, 0x1019F}, {0x101A1, 0x101CF}, {0x101FD, 0x1027F}, {0x1029D, 0x1029F},
    {0x102D1, 0x102E0}, {0x102FC, 0x102FF}, {0x10324, 0x1032C}, {0x1034B, 0x1034F},
    {0x10376, 0x1037F}, {0x1039E, 0x1039E}, {0x103C4, 0x103C7}, {0x103D6, 0x103FF},
    {0x1049E, 0x1049F}, {0x104AA, 0x104AF}, {0x104D4, 0x104D7}, {0x104FC, 0x104FF},
    {0x10528, 0x1052F}, {0x10564, 0x1056E}, {0x1057B, 0x1057B}, {0x1058B, 0x1058B},
    {0x10593, 0x10593}, {0x10596, 0x10596}, {0x105A2, 0x105A2}, {0x105B2, 0x105B2},
    {0x105BA, 0x105BA}, {0x105BD, 0x105FF}, {0x10737, 0x1073F}, {0x10756, 0x1075F},
    {0x10768, 0x1077F}, {0x10786, 0x10786}, {0x107B1, 0x107B1}, {0x107BB, 0x107FF},
    {0x10806, 0x10807}, {0x10809, 0x10809}, {0x10836, 0x10836}, {0x10839, 0x1083B},
    {0x1083D, 0x1083E}, {0x10856, 0x10856}, {0x1089F, 0x108A6}, {0x108B0, 0x108DF},
    {0x108F3, 0x108F3}, {0x108F6, 0x108FA}, {0x1091C, 0x1091E}, {0x1093A, 0x1093E},
    {0x10940, 0x1097F}, {0x109B8, 0x109BB}, {0x109D0, 0x109D1}, {0x10A01, 0x10A0F},
    {0x10A14, 0x10A14}, {0x10A18, 0x10A18}, {0x10A36, 0x10A3F}, {0x10A49, 0x10A4F},
    {0x10A59, 0x10A5F}, {0x10AA0, 0x10ABF}, {0x10AE5, 0x10AEA}, {0x10AF7, 0x10AFF},
    {0x10B36, 0x10B38}, {0x10B56, 0x10B57}, {0x10B73, 0x10B77}, {0x10B92, 0x10B98},
    {0x10B9D, 0x10BA8}, {0x10BB0, 0x10BFF}, {0x10C49, 0x10C7F}, {0x10CB3, 0x10CBF},
    {0x10CF3, 0x10CF9}, {0x10D24, 0x10D2F}, {0x10D3A, 0x10E5F}, {0x10E7F, 0x10E7F},
    {0x10EAA, 0x10EAC}, {0x10EAE, 0x10EAF}, {0x10EB2, 0x10EFF}, {0x10F28, 0x10F2F},
    {0x10F46, 0x10F50}, {0x10F5A, 0x10F6F}, {0x10F82, 0x10F85}, {0x10F8A, 0x10FAF},
    {0x10FCC, 0x10FDF}, {0x10FF7, 0x11002}, {0x11038, 0x11046}, {0x1104E, 0x11051},
    {0x11070, 0x11070}, {0x11073, 0x11074}, {0x11076, 0x11082}, {0x110B0, 0x110BA},
    {0x110BD, 0x110BD}, {0x110C2, 0x110CF}, {0x110E9, 0x110EF}, {0x110FA, 0x11102},
    {0x11127, 0x11135}, {0x11145, 0x11146}, {0x11148, 0x1114F}, {0x11173, 0x11173},
    {0x11177, 0x11182}, {0x111B3, 0x111C0}, {0x111C9, 0x111CC}, {0x111CE, 0x111CF},
    {0x111E0, 0x111E0}, {0x111F5, 0x111FF}, {0x11212, 0x11212}, {0x1122C, 0x11237},
    {0x1123E, 0x1127F}, {0x11287, 0x11287}, {0x11289, 0x11289}, {0x1128E, 0x1128E},
    {0x1129E, 0x1129E}, {0x112AA, 0x112AF}, {0x112DF, 0x112EF}, {0x112FA, 0x11304},
    {0x1130D, 0x1130E}, {0x11311, 0x11312}, {0x11329, 0x11329}, {0x11331, 0x11331},
    {0x11334, 0x11334}, {0x1133A, 0x1133C}, {0x1133E, 0x1134F}, {0x11351, 0x1135C},
    {0x11362, 0x113FF}, {0x11435, 0x11446}, {0x1145C, 0x1145C}, {0x1145E, 0x1145E},
    {0x11462, 0x1147F}, {0x114B0, 0x114C3}, {0x114C8, 0x114CF}, {0x114DA, 0x1157F},
    {0x115AF, 0x115C0}, {0x115DC, 0x115FF}, {0x11630, 0x11640}, {0x11645, 0x1164F},
    {0x1165A, 0x1165F}, {0x1166D, 0x1167F}, {0x116AB, 0x116B7}, {0x116BA, 0x116BF},
    {0x116CA, 0x116FF}, {0x1171B, 0x1172F}, {0x11747, 0x117FF}, {0x1182C, 0x1183A},
    {0x1183C, 0x1189F}, {0x118F3, 0x118FE}, {0x11907, 0x11908}, {0x1190A, 0x1190B},
    {0x11914, 0x11914}, {0x11917, 0x11917}, {0x11930, 0x1193E}, {0x11940, 0x11940},
    {0x11942, 0x11943}, {0x11947, 0x1194F}, {0x1195A, 0x1199F}, {0x119A8, 0x119A9},
    {0x119D1, 0x119E0}, {0x119E4, 0x119FF}, {0x11A01, 0x11A0A}, {0x11A33, 0x11A39},
    {0x11A3B, 0x11A3E}, {0x11A47, 0x11A4F}, {0x11A51, 0x11A5B}, {0x11A8A, 0x11A99},
    {0x11AA3, 0x11AAF}, {0x11AF9, 0x11BFF}, {0x11C09, 0x11C09}, {0x11C2F, 0x11C3F},
    {0x11C46, 0x11C4F}, {0x11C6D, 0x11C6F}, {0x11C90, 0x11CFF}, {0x11D07, 0x11D07},
    {0x11D0A, 0x11D0A}, {0x11D31, 0x11D45}, {0x11D47, 0x11D4F}, {0x11D5A, 0x11D5F},
    {0x11D66, 0x11D66}, {0x11D69, 0x11D69}, {0x11D8A, 0x11D97}, {0x11D99, 0x11D9F},
    {0x11DAA, 0x11EDF}, {0x11EF3, 0x11EF6}, {0x11EF9, 0x11FAF}, {0x11FB1, 0x11FBF},
    {0x11FF2, 0x11FFE}, {0x1239A, 0x123FF}, {0x1246F, 0x1246F}, {0x12475, 0x1247F},
    {0x12544, 0x12F8F}, {0x12FF3, 0x12FFF}, {0x1342F, 0x143FF}, {0x14647, 0x167FF},
    {0x16A39, 0x16A3F}, {0x16A5F, 0x16A5F}, {0x16A6A, 0x16A6D}, {0x16ABF, 0x16ABF},
    {0x16ACA, 0x16ACF}, {0x16AEE, 0x16AF4}, {0x16AF6, 0x16AFF}, {0x16B30, 0x16B36},
    {0x16B46, 0x16B4F}, {0x16B5A, 0x16B5A}, {0x16B62, 0x16B62}, {0x16B78, 0x16B7C},
    {0x16B90, 0x16E3F}, {0x16E9B, 0x16EFF}, {0x16F4B, 0x16F4F}, {0x16F51, 0x16F92},
    {0x16FA0, 0x16FDF}, {0x16FE4, 0x16FFF}, {0x187F8, 0x187FF}, {0x18CD6, 0x18CFF},
    {0x18D09, 0x1AFEF}, {0x1AFF4, 0x1AFF4}, {0x1AFFC, 0x1AFFC}, {0x1AFFF, 0x1AFFF},
    {0x1B123, 0x1B14F}, {0x1B153, 0x1B163}, {0x1B168, 0x1B16F}, {0x1B2FC, 0x1BBFF},
    {0x1BC6B, 0x1BC6F}, {0x1BC7D, 0x1BC7F}, {0x1BC89, 0x1BC8F}, {0x1BC9A, 0x1BC9B},
    {0x1BC9D, 0x1BC9E}, {0x1BCA0, 0x1CF4F}, {0x1CFC4, 0x1CFFF}, {0x1D0F6, 0x1D0FF},
    {0x1D127, 0x1D128}, {0x1D165, 0x1D169}, {0x1D16D, 0x1D182}, {0x1D185, 0x1D18B},
    {0x1D1AA, 0x1D1AD}, {0x1D1EB, 0x1D1FF}, {0x1D242, 0x1D244}, {0x1D246, 0x1D2DF},
    {0x1D2F4, 0x1D2FF}, {0x1D357, 0x1D35F}, {0x1D379, 0x1D3FF}, {0x1D455, 0x1D455},
    {0x1D49D, 0x1D49D}, {0x1D4A0, 0x1D4A1}, {0x1D4A3, 0x1D4A4}, {0x1D4A7, 0x1D4A8},
    {0x1D4AD, 0x1D4AD}, {0x1D4BA, 0x1D4BA}, {0x1D4BC, 0x1D4BC}, {0x1D4C4, 0x1D4C4},
    {0x1D506, 0x1D506}, {0x1D50B, 0x1D50C}, {0x1D515, 0x1D515}, {0x1D51D, 0x1D51D},
    {0x1D53A, 0x1D53A}, {0x1D53F, 0x1D53F}, {0x1D545, 0x1D545}, {0x1D547, 0x1D549},
    {0x1D551, 0x1D551}, {0x1D6A6, 0x1D6A7}, {0x1D7CC, 0x1D7CD}, {0x1DA00, 0x1DA36},
    {0x1DA3B, 0x1DA6C}, {0x1DA75, 0x1DA75}, {0x1DA84, 0x1DA84}, {0x1DA8C, 0x1DEFF},
    {0x1DF1F, 0x1E0FF}, {0x1E12D, 0x1E136}, {0x1E13E, 0x1E13F}, {0x1E14A, 0x1E14D},
    {0x1E150, 0x1E28F}, {0x1E2AE, 0x1E2BF}, {0x1E2EC, 0x1E2EF}, {0x1E2FA, 0x1E2FE},
    {0x1E300, 0x1E7DF}, {0x1E7E7, 0x1E7E7}, {0x1E7EC, 0x1E7EC}, {0x1E7EF, 0x1E7EF},
    {0x1E7FF, 0x1E7FF}, {0x1E8C5, 0x1E8C6}, {0x1E8D0, 0x1E8FF}, {0x1E944, 0x1E94A},
    {0x1E94C, 0x1E94F}, {0x1E95A, 0x1E95D}, {0x1E960, 0x1EC70}, {0x1ECB5, 0x1ED00},
    {0x1ED3E, 0x1EDFF}, {0x1EE04, 0x1EE04}, {0x1EE20, 0x1EE20}, {0x1EE23, 0x1EE23},
    {0x1EE25, 0x1EE26}, {0x1EE28, 0x1EE28}, {0x1EE33, 0x1EE33}, {0x1EE38, 0x1EE38},
    {0x1EE3A, 0x1EE3A}, {0x1EE3C, 0x1EE41}, {0x1EE43, 0x1EE46}, {0x1EE48, 0x1EE48},
    {0x1EE4A, 0x1EE4A}, {0x1EE4C, 0x1EE4C}, {0x1EE50, 0x1EE50}, {0x1EE53, 0x1EE53},
    {0x1EE55, 0x1EE56}, {0x1EE58, 0x1EE58}, {0x1EE5A, 0x1EE5A}, {0x1EE5C, 0x1EE5C},
    {0x1EE5E, 0x1EE5E}, {0x1EE60, 0x1EE60}, {0x1EE63, 0x1EE63}, {0x1EE65, 0x1EE66},
    {0x1EE6B, 0x1EE6B}, {0x1EE73, 0x1EE73}, {0x1EE78, 0x1EE78}, {0x1EE7D, 0x1EE7D},
    {0x1EE7F, 0x1EE7F}, {0x1EE8A, 0x1EE8A}, {0x1EE9C, 0x1EEA0}, {0x1EEA4, 0x1EEA4},
    {0x1EEAA, 0x1EEAA}, {0x1EEBC, 0x1EEEF}, {0x1EEF2, 0x1EFFF}, {0x1F02C, 0x1F02F},
    {0x1F094, 0x1F09F}, {0x1F0AF, 0x1F0B0}, {0x1F0C0, 0x1F0C0}, {0x1F0D0, 0x1F0D0},
    {0x1F0F6, 0x1F0FF}, {0x1F1AE, 0x1F1E5}, {0x1F203, 0x1F20F}, {0x1F23C, 0x1F23F},
    {0x1F249, 0x1F24F}, {0x1F252, 0x1F25F}, {0x1F266, 0x1F2FF}, {0x1F6D8, 0x1F6DC},
    {0x1F6ED, 0x1F6EF}, {0x1F6FD, 0x1F6FF}, {0x1F774, 0x1F77F}, {0x1F7D9, 0x1F7DF},
    {0x1F7EC, 0x1F7EF}, {0x1F7F1, 0x1F7FF}, {0x1F80C, 0x1F80F}, {0x1F848, 0x1F84F},
    {0x1F85A, 0x1F85F}, {0x1F888, 0x1F88F}, {0x1F8AE, 0x1F8AF}, {0x1F8B2, 0x1F8FF},
    {0x1FA54, 0x1FA5F}, {0x1FA6E, 0x1FA6F}, {0x1FA75, 0x1FA77}, {0x1FA7D, 0x1FA7F},
    {0x1FA87, 0x1FA8F}, {0x1FAAD, 0x1FAAF}, {0x1FABB, 0x1FABF}, {0x1FAC6, 0x1FACF},
    {0x1FADA, 0x1FADF}, {0x1FAE8, 0x1FAEF}, {0x1FAF7, 0x1FAFF}, {0x1FB93, 0x1FB93},
    {0x1FBCB, 0x1FBEF}, {0x1FBFA, 0x1FFFF}, {0x2FFFE, 0x2FFFF}, {0x3FFFE, 0xEFFFF},
    {0xFFFFE, 0xFFFFF}, {0x10FFFE, 0x10FFFF},
};
static const pr_range pr_double_width[] = {
    {0x1100, 0x115F}, {0x2329, 0x232A}, {0x2E80, 0x2E99}, {0x2E9B, 0x2EF3}, {0x2F00, 0x2FD5},
    {0x2FF0, 0x2FFB}, {0x3000, 0x3029}, {0x3030, 0x303E}, {0x3041, 0x3096}, {0x309B, 0x30FF},
    {0x3105, 0x312F}, {0x3131, 0x318E}, {0x3190, 0x31E3}, {0x31F0, 0x321E}, {0x3220, 0x3247},
    {0x3250, 0x4DBF}, {0x4E00, 0xA48C}, {0xA490, 0xA4C6}, {0xA960, 0xA97C}, {0xAC00, 0xD7A3},
    {0xF900, 0xFAFF}, {0xFE10, 0xFE19}, {0xFE30, 0xFE52}, {0xFE54, 0xFE66}, {0xFE68, 0xFE6B},
    {0xFF01, 0xFF60}, {0xFFE0, 0xFFE6}, {0x16FE0, 0x16FE3}, {0x17000, 0x187F7}, {0x18800, 0x18CD5},
    {0x18D00, 0x18D08}, {0x1AFF0, 0x1AFF3}, {0x1AFF5, 0x1AFFB}, {0x1AFFD, 0x1AFFE},
    {0x1B000, 0x1B122}, {0x1B150, 0x1B152}, {0x1B164, 0x1B167}, {0x1B170, 0x1B2FB},
    {0x1F200, 0x1F200}, {0x1F202, 0x1F202}, {0x1F210, 0x1F219}, {0x1F21B, 0x1F22E},
    {0x1F230, 0x1F231}, {0x1F237, 0x1F237}, {0x1F23B, 0x1F23B}, {0x1F240, 0x1F248},
    {0x1F260, 0x1F265}, {0x1F6D5, 0x1F6D7}, {0x1F6DD, 0x1F6DF}, {0x1F6F9, 0x1F6FC},
    {0x1F7E0, 0x1F7EB}, {0x1F7F0, 0x1F7F0}, {0x1F90C, 0x1F90F}, {0x1F93F, 0x1F93F},
    {0x1F94D, 0x1F94F}, {0x1F96C, 0x1F97F}, {0x1F998, 0x1F9BF}, {0x1F9C1, 0x1F9CF},
    {0x1F9E7, 0x1F9FF}, {0x1FA70, 0x1FA74}, {0x1FA78, 0x1FA7C}, {0x1FA80, 0x1FA86},
    {0x1FA90, 0x1FAAC}, {0x1FAB0, 0x1FABA}, {0x1FAC0, 0x1FAC5}, {0x1FAD0, 0x1FAD9},
    {0x1FAE0, 0x1FAE7}, {0x1FAF0, 0x1FAF6}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

static bool pr_in_table(const pr_range *table, size_t count, uint32_t cp) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (table[mid].last < cp) lo = mid + 1;
        else hi = mid;
    }
    return lo < count && table[lo].first <= cp;
}

static unsigned pr_codepoint_width(uint32_t cp) {
    if (cp >= 0x20 && cp < 0x7F) return 1;
    if (cp < 0x80) return 0;
    if (pr_in_table(pr_zero_width, MU_ARRAY_LEN(pr_zero_width), cp)) return 0;
    if (pr_in_table(pr_double_width, MU_ARRAY_LEN(pr_double_width), cp)) return 2;
    return 1;
}

/* A validating UTF-8 decoder fed byte by byte: the same accepted sequences
 * as the DFA ClickHouse uses (no overlongs, surrogates or code points past
 * U+10FFFF); a byte that cannot continue the sequence is rejected. */
typedef struct pr_utf8 {
    unsigned need; /* continuation bytes still expected */
    uint8_t lo, hi; /* range of the next continuation byte */
    uint32_t cp;
} pr_utf8;

enum { PR_UTF8_ACCEPT, PR_UTF8_REJECT, PR_UTF8_MORE };

static int pr_utf8_step(pr_utf8 *d, uint8_t b) {
    if (d->need == 0) {
        d->lo = 0x80;
        d->hi = 0xBF;
        d->cp = b;
        if (b < 0x80) return PR_UTF8_ACCEPT;
        if (b >= 0xC2 && b <= 0xDF) {
            d->need = 1;
            d->cp = b & 0x1F;
        } else if (b >= 0xE0 && b <= 0xEF) {
            d->need = 2;
            d->cp = b & 0x0F;
            if (b == 0xE0) d->lo = 0xA0;
            if (b == 0xED) d->hi = 0x9F;
        } else if (b >= 0xF0 && b <= 0xF4) {
            d->need = 3;
            d->cp = b & 0x07;
            if (b == 0xF0) d->lo = 0x90;
            if (b == 0xF4) d->hi = 0x8F;
        } else {
            return PR_UTF8_REJECT;
        }
        return PR_UTF8_MORE;
    }
    if (b < d->lo || b > d->hi) {
        d->need = 0;
        return PR_UTF8_REJECT;
    }
    d->cp = d->cp << 6 | (b & 0x3Fu);
    d->lo = 0x80;
    d->hi = 0xBF;
    return --d->need == 0 ? PR_UTF8_ACCEPT : PR_UTF8_MORE;
}

static bool pr_printable(uint8_t c) { return c >= 0x20 && c <= 0x7E; }

/* ClickHouse's width walk, quirks included because the grid depends on
 * them: runs of printable ASCII count one column each (inside an ANSI escape
 * sequence none, until its final byte), scanned 16 bytes at a time as the
 * SSE2 build does (which counts a run inside an escape sequence when a
 * non-ASCII byte follows within the 16); a tab advances to the next multiple
 * of 8 counted from `prefix`; an invalid sequence takes no column and its
 * first byte is skipped; the byte after the end reads as NUL, as
 * ClickHouse's zero-terminated buffers do. With bytes_mode the result is
 * the number of leading bytes that fit in `limit` columns (UTF8::
 * computeBytesBeforeWidth), else the width. */
static size_t pr_measure(const uint8_t *s, size_t n, size_t prefix, size_t limit,
                         bool bytes_mode) {
    pr_utf8 d = {0};
    bool escape = false;
    size_t width = 0, rollback = 0;
    for (size_t i = 0; i < n; ++i) {
        while (i + 15 < n) {
            size_t k = 0;
            while (k < 16 && pr_printable(s[i + k])) k++;
            if (k < 16) {
                width += k;
                i += k;
                break;
            }
            if (escape) break;
            i += 16;
            width += 16;
        }
        for (; i < n && pr_printable(s[i]); ++i) {
            if (!escape) width++;
            else if (s[i] >= 0x40 && s[i] <= 0x7E && s[i - 1] != 0x1B) escape = false;
        }
        if (bytes_mode && width > limit) return i - (width - limit);
        int state = pr_utf8_step(&d, i < n ? s[i] : 0);
        if (state == PR_UTF8_REJECT) {
            i -= rollback;
            rollback = 0;
        } else if (state == PR_UTF8_ACCEPT) {
            size_t next = width;
            if (d.cp == 0x1B) escape = true;
            else if (d.cp == '\t') next += 8 - (prefix + width) % 8;
            else next += pr_codepoint_width(d.cp);
            if (bytes_mode && next > limit) return i - rollback;
            width = next;
            rollback = 0;
        } else {
            rollback++;
        }
    }
    return bytes_mode ? n : width;
}

static size_t pr_width(const uint8_t *s, size_t n, size_t prefix) {
    return pr_measure(s, n, prefix, 0, false);
}

/* ------------------------------------------------------------------ */
/* Helpers shared by the formats                                       */
/* ------------------------------------------------------------------ */

static int pr_repeat(mu_buf *out, const char *s, size_t count, mu_err *err) {
    size_t n = strlen(s);
    int rc = mu_buf_reserve(out, n * count, err);
    for (size_t i = 0; rc == 0 && i < count; i++) rc = mu_buf_append(out, s, n, err);
    return rc;
}

/* Appends s with ClickHouse's writeAnyEscapedString<quote>: \b \f \n \r \t
 * NUL and backslash as two-character escapes, and `quote` after a
 * backslash. */
static int pr_escape(const uint8_t *s, size_t n, char quote, mu_buf *out, mu_err *err) {
    int rc = mu_buf_reserve(out, n, err);
    size_t run = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        char e;
        switch (s[i]) {
        case '\b': e = 'b'; break;
        case '\f': e = 'f'; break;
        case '\n': e = 'n'; break;
        case '\r': e = 'r'; break;
        case '\t': e = 't'; break;
        case '\0': e = '0'; break;
        case '\\': e = '\\'; break;
        default:
            if (s[i] != (uint8_t)quote) continue;
            e = quote;
        }
        char pair[2] = {'\\', e};
        rc = mu_buf_append(out, s + run, i - run, err);
        if (rc == 0) rc = mu_buf_append(out, pair, 2, err);
        run = i + 1;
    }
    if (rc == 0) rc = mu_buf_append(out, s + run, n - run, err);
    return rc;
}

/* The type under Nullable and LowCardinality. */
static const ty_type *pr_base_type(const ty_type *t) {
    t = ty_type_strip_nullable(t);
    if (t->kind == TY_LOW_CARDINALITY) t = ty_type_strip_nullable(t->child);
    return t;
}

/* IDataType::shouldAlignRightInPrettyFormats: plain numbers, Decimal and
 * the dates (number types underneath); not Bool, which has its own text. */
static bool pr_align_right(const ty_type *type) {
    switch (pr_base_type(type)->kind) {
    case TY_UINT8: case TY_UINT16: case TY_UINT32: case TY_UINT64:
    case TY_INT8: case TY_INT16: case TY_INT32: case TY_INT64:
    case TY_FLOAT32: case TY_FLOAT64: case TY_DECIMAL:
    case TY_DATE: case TY_DATE32: case TY_DATETIME: case TY_DATETIME64:
        return true;
    default:
        return false;
    }
}

/* isNumber() of the type without Nullable/LowCardinality (Bool is a UInt8). */
static bool pr_is_number(const ty_type *type) {
    ty_kind k = pr_base_type(type)->kind;
    return k <= TY_FLOAT64 || k == TY_BOOL || k == TY_DECIMAL;
}

/* IColumn::getFloat64 of a number; false for NULL. */
static bool pr_number_at(const ty_column *c, uint32_t row, double *out) {
    if (ty_column_is_null(c, row)) return false;
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (t->kind == TY_LOW_CARDINALITY) {
        row = mu_load_u32le(c->values.data + (size_t)row * 4);
        c = ty_column_child(c, 0);
        t = ty_type_strip_nullable(c->type);
    }
    union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; int8_t i8; int16_t i16;
            int32_t i32; int64_t i64; float f32; double f64; __int128 i128; } v;
    uint32_t bytes = ty_type_value_bytes(t);
    if (!pr_is_number(t) || bytes > sizeof v) return false;
    memcpy(&v, c->values.data + (size_t)row * bytes, bytes);
    switch (t->kind) {
    case TY_UINT8: case TY_BOOL: *out = v.u8; return true;
    case TY_UINT16: *out = v.u16; return true;
    case TY_UINT32: *out = v.u32; return true;
    case TY_UINT64: *out = (double)v.u64; return true;
    case TY_INT8: *out = v.i8; return true;
    case TY_INT16: *out = v.i16; return true;
    case TY_INT32: *out = v.i32; return true;
    case TY_INT64: *out = (double)v.i64; return true;
    case TY_FLOAT32: *out = v.f32; return true;
    case TY_FLOAT64: *out = v.f64; return true;
    case TY_DECIMAL: {
        double whole = bytes == 4 ? v.i32 : bytes == 8 ? (double)v.i64 : (double)v.i128;
        *out = whole / (double)ty_decimal_pow10(t->scale);
        return true;
    }
    default:
        return false;
    }
}

/* writeReadableNumberTip: " -- 12.35 million" for a finite number above
 * the threshold, except the range most 64-bit hashes fall in. The digits
 * are double-conversion's ToFixed(x, 2), which rounds halves up. */
static int pr_tip(double value, mu_buf *out, mu_err *err) {
    static const char *const units[] = {"", " thousand", " million", " billion", " trillion",
                                        " quadrillion"};
    double a = fabs(value);
    if (!isfinite(value) || !(a > PR_TIP_THRESHOLD) || (a > 1e17 && a < 1.844675e19)) return 0;
    size_t unit = 0;
    for (; unit + 1 < MU_ARRAY_LEN(units) && fabs(value) >= 1000; ++unit) value /= 1000;
    char exact[400]; /* every digit of the double: at most 294 before the point */
    int n = snprintf(exact, sizeof exact, "%.60f", fabs(value));
    if (n <= 0 || (size_t)n >= sizeof exact) return MU_ERR(err, MU_EINTERNAL, "number tip");
    char *point = strchr(exact, '.');
    MU_ASSERT(point != NULL && point[1] != 0 && point[2] != 0 && point[3] != 0);
    char digits[400];
    size_t whole = (size_t)(point - exact), count = whole + 2;
    memcpy(digits + 1, exact, whole);
    memcpy(digits + 1 + whole, point + 1, 2);
    digits[0] = '0';
    if (point[3] >= '5') {
        size_t i = count;
        while (digits[i] == '9') digits[i--] = '0';
        digits[i]++;
    }
    size_t start = digits[0] == '0' ? 1 : 0;
    int rc = mu_buf_append_str(out, value < 0 ? " -- -" : " -- ", err);
    if (rc == 0) rc = mu_buf_append(out, digits + start, count - 1 - start, err);
    if (rc == 0) rc = mu_buf_append_u8(out, '.', err);
    if (rc == 0) rc = mu_buf_append(out, digits + count - 1, 2, err);
    if (rc == 0) rc = mu_buf_append_str(out, units[unit], err);
    return rc;
}

static bool pr_identifier(const char *s, size_t n) {
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && (i == 0 || c < '0' || c > '9')) return false;
    }
    return !(n == 4 && (s[0] | 32) == 'n' && (s[1] | 32) == 'u' && (s[2] | 32) == 'l' &&
             (s[3] | 32) == 'l');
}

/* truncateName: a name wider than cut_to + PR_NAME_MIN_CUT columns that is
 * not an identifier keeps its first cut_to/2 and last (cut_to-1)/2 columns
 * around a ⋯. Appends the name to out and returns its width. */
static int pr_cut_name(const char *name, size_t cut_to, mu_buf *out, size_t *width_out,
                       mu_err *err) {
    const uint8_t *s = (const uint8_t *)name;
    size_t n = strlen(name), width = pr_width(s, n, 0);
    if (width <= cut_to + PR_NAME_MIN_CUT || pr_identifier(name, n)) {
        *width_out = width;
        return mu_buf_append(out, name, n, err);
    }
    size_t head = pr_measure(s, n, 0, cut_to / 2, true);
    size_t tail = pr_measure(s, n, 0, width - (cut_to - 1) / 2, true);
    int rc = mu_buf_append(out, name, head, err);
    if (rc == 0) rc = mu_buf_append_str(out, PR_ELLIPSIS, err);
    if (rc == 0) rc = mu_buf_append(out, name + tail, n - tail, err);
    *width_out = cut_to;
    return rc;
}

static unsigned pr_digits(uint64_t v) {
    unsigned d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* ------------------------------------------------------------------ */
/* Writer state                                                        */
/* ------------------------------------------------------------------ */

/* The code an arena allocation left in err (it fills err when it fails). */
static int pr_alloc_failed(const mu_err *err) { return err && err->code ? err->code : MU_ENOMEM; }

typedef enum pr_style { PR_FULL, PR_COMPACT, PR_SPACE } pr_style;

typedef struct pr_state {
    mu_arena *arena;          /* names, labels, copies of the column types */
    unsigned render_flags;    /* TY_RENDER_DECIMAL_TRAILING_ZEROS or 0 */
    uint32_t column_count;
    const char **names;       /* column names (Markdown, Pretty) */
    const char **keys;        /* TSKV: escaped "name=" */
    const ty_type **types;    /* the schema's types, copied */
    /* Vertical, and Pretty falling back to it */
    const char **labels;      /* "name: " padded to one width */
    bool *is_number;
    uint64_t vertical_rows;   /* VerticalRowOutputFormat's row_number */
    /* Pretty: every row of the result forms one block */
    pr_style style;
    ty_column **head;         /* its first PR_HEAD_ROWS rows */
    ty_column **tail;         /* later rows, at least its last PR_TAIL_ROWS */
    uint32_t head_rows, tail_rows;
    uint64_t block_rows;      /* rows of the result */
    uint64_t total_rows;      /* PrettyBlockOutputFormat's total_rows */
    uint64_t displayed_rows;  /* ... and its displayed_rows */
    bool use_vertical;        /* fell back to the Vertical layout */
    bool block_written;       /* the block and "Showed ..." are out */
    bool tip;                 /* one numeric column: tips for a lone value */
    mu_buf text, line;        /* scratch */
} pr_state;

static void pr_state_free(pr_state *st) {
    if (st == NULL) return;
    for (uint32_t i = 0; i < st->column_count; i++) {
        if (st->head) ty_column_destroy(st->head[i]);
        if (st->tail) ty_column_destroy(st->tail[i]);
    }
    free(st->head);
    free(st->tail);
    mu_buf_deinit(&st->text);
    mu_buf_deinit(&st->line);
    mu_arena_destroy(st->arena);
    free(st);
}

static void pr_destroy(fmt_writer *w) {
    pr_state_free(w->state);
    w->state = NULL;
}

/* The labels of VerticalRowOutputFormat: each name cut as truncateName
 * does with the fixed limit, followed by ": " and spaces up to the widest. */
static int pr_labels(pr_state *st, mu_err *err) {
    uint32_t n = st->column_count;
    size_t *widths = mu_arena_calloc(st->arena, n ? n : 1, sizeof(size_t), err);
    st->labels = mu_arena_calloc(st->arena, n ? n : 1, sizeof(char *), err);
    st->is_number = mu_arena_calloc(st->arena, n ? n : 1, sizeof(bool), err);
    if (widths == NULL || st->labels == NULL || st->is_number == NULL) return pr_alloc_failed(err);
    size_t widest = 0;
    for (uint32_t i = 0; i < n; i++) {
        mu_buf_clear(&st->text);
        int rc = pr_cut_name(st->names[i], PR_NAME_CUT_TO, &st->text, &widths[i], err);
        if (rc != 0) return rc;
        widest = MU_MAX(widest, widths[i]);
        const char *cut = st->text.data ? (const char *)st->text.data : "";
        st->labels[i] = mu_arena_strndup(st->arena, cut, st->text.length_bytes, err);
        if (st->labels[i] == NULL) return pr_alloc_failed(err);
        st->is_number[i] = pr_is_number(st->types[i]);
    }
    for (uint32_t i = 0; i < n; i++) {
        mu_buf_clear(&st->text);
        int rc = mu_buf_append_str(&st->text, st->labels[i], err);
        if (rc == 0) rc = mu_buf_append(&st->text, ": ", 2, err);
        if (rc == 0) rc = pr_repeat(&st->text, " ", widest - widths[i], err);
        if (rc != 0) return rc;
        st->labels[i] = mu_arena_strndup(st->arena, (const char *)st->text.data,
                                         st->text.length_bytes, err);
        if (st->labels[i] == NULL) return pr_alloc_failed(err);
    }
    return 0;
}

/* The state every kind but Null keeps: names and copies of the types (the
 * schema is only borrowed until fmt_writer_end; retained Pretty rows need
 * their types until the writer is destroyed). */
static int pr_state_create(fmt_writer *w, const ty_batch *schema, mu_err *err) {
    MU_ASSERT(w->state == NULL);
    pr_state *st = calloc(1, sizeof(*st));
    if (st == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a %s writer",
                                  fmt_name(w->kind));
    w->state = st;
    mu_buf_init(&st->text, 0);
    mu_buf_init(&st->line, 0);
    st->render_flags = w->opt.decimal_trailing_zeros ? TY_RENDER_DECIMAL_TRAILING_ZEROS : 0;
    int rc = mu_arena_create(&st->arena, NULL, 4096, err);
    if (rc != 0) return rc;
    uint32_t n = schema->column_count;
    st->names = mu_arena_calloc(st->arena, n ? n : 1, sizeof(char *), err);
    st->types = mu_arena_calloc(st->arena, n ? n : 1, sizeof(ty_type *), err);
    if (st->names == NULL || st->types == NULL) return pr_alloc_failed(err);
    for (uint32_t i = 0; i < n; i++) {
        st->names[i] = mu_arena_strndup(st->arena, schema->names[i], strlen(schema->names[i]),
                                        err);
        if (st->names[i] == NULL) return pr_alloc_failed(err);
        rc = ty_type_clone(schema->columns[i]->type, st->arena, &st->types[i], err);
        if (rc != 0) return rc;
    }
    st->column_count = n;
    return 0;
}

/* serializeText as the Pretty formats and Vertical call it: values
 * unescaped, NULL as ᴺᵁᴸᴸ, composites in their quoted form. */
static int pr_text(const pr_state *st, const ty_column *c, uint32_t row, mu_buf *out,
                   mu_err *err) {
    if (ty_column_is_null(c, row)) return mu_buf_append_str(out, PR_NULL, err);
    return ty_column_render_text(c, row, st->render_flags, out, err);
}

/* serializeTextEscaped as TSKV and Markdown call it: TSV escaping of
 * scalars, composites as they are, NULL as \N. */
static int pr_escaped(pr_state *st, const ty_column *c, uint32_t row, mu_buf *out,
                      mu_err *err) {
    if (ty_column_is_null(c, row)) return mu_buf_append(out, "\\N", 2, err);
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (t->kind == TY_ARRAY || t->kind == TY_MAP)
        return ty_column_render_text(c, row, st->render_flags, out, err);
    mu_buf_clear(&st->text);
    int rc = ty_column_render_text(c, row, st->render_flags, &st->text, err);
    return rc ? rc : pr_escape(st->text.data, st->text.length_bytes, '\'', out, err);
}

/* ------------------------------------------------------------------ */
/* Vertical                                                            */
/* ------------------------------------------------------------------ */

/* "Row N:" under a rule of floor(log10(N + 1)) + 6 dashes (one more than
 * the title when N + 1 is a power of ten, as ClickHouse counts), then one
 * "name: value" line per column with a tip after large numbers. Rows past
 * the limit are counted, not written. */
static int pr_vertical_row(pr_state *st, ty_column *const *cols, uint32_t row, mu_buf *out,
                           mu_err *err) {
    st->vertical_rows++;
    if (st->vertical_rows > PR_MAX_ROWS) return 0;
    int rc = mu_buf_printf(out, err, "Row %llu:\n", (unsigned long long)st->vertical_rows);
    if (rc == 0) rc = pr_repeat(out, PR_DASH, pr_digits(st->vertical_rows + 1) + 5, err);
    if (rc == 0) rc = mu_buf_append_u8(out, '\n', err);
    for (uint32_t i = 0; rc == 0 && i < st->column_count; i++) {
        double v;
        rc = mu_buf_append_str(out, st->labels[i], err);
        if (rc == 0) rc = pr_text(st, cols[i], row, out, err);
        if (rc == 0 && st->is_number[i] && pr_number_at(cols[i], row, &v)) rc = pr_tip(v, out, err);
        if (rc == 0) rc = mu_buf_append_u8(out, '\n', err);
    }
    return rc;
}

/* The empty line between rows, while under the limit. */
static int pr_vertical_between(const pr_state *st, mu_buf *out, mu_err *err) {
    return st->vertical_rows > PR_MAX_ROWS ? 0 : mu_buf_append_u8(out, '\n', err);
}

static int pr_vertical_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    (void)out;
    int rc = pr_state_create(w, schema, err);
    return rc ? rc : pr_labels(w->state, err);
}

static int pr_vertical_rows(fmt_writer *w, const ty_batch *batch, mu_buf *out, mu_err *err) {
    pr_state *st = w->state;
    MU_ASSERT(batch->column_count == st->column_count);
    uint32_t rows = ty_batch_visible_rows(batch);
    int rc = 0;
    for (uint32_t v = 0; rc == 0 && v < rows; v++) {
        if (st->vertical_rows > 0) rc = pr_vertical_between(st, out, err);
        uint32_t row = batch->selection ? batch->selection[v] : v;
        if (rc == 0) rc = pr_vertical_row(st, batch->columns, row, out, err);
    }
    return rc;
}

/* The suffix comes before the totals (ClickHouse ends the main result
 * first); totals reset the row number, so the suffix is written once. */
static int pr_vertical_suffix(pr_state *st, mu_buf *out, mu_err *err) {
    if (st->vertical_rows <= PR_MAX_ROWS) return 0;
    st->vertical_rows = 0;
    return mu_buf_printf(out, err, "Showed first %u.\n", PR_MAX_ROWS);
}

static int pr_vertical_totals(fmt_writer *w, const ty_batch *totals, mu_buf *out, mu_err *err) {
    pr_state *st = w->state;
    MU_ASSERT(totals->column_count == st->column_count);
    int rc = pr_vertical_suffix(st, out, err);
    if (rc != 0 || ty_batch_visible_rows(totals) == 0) return rc;
    uint32_t row = totals->selection ? totals->selection[0] : 0;
    st->vertical_rows = 0;
    rc = mu_buf_append_str(out, "\n\nTotals:\n", err);
    if (rc == 0) rc = pr_repeat(out, PR_DASH, strlen("Totals") + 1, err);
    if (rc == 0) rc = mu_buf_append_u8(out, '\n', err);
    for (uint32_t i = 0; rc == 0 && i < st->column_count; i++) {
        double v;
        rc = mu_buf_append_str(out, st->labels[i], err);
        if (rc == 0) rc = pr_text(st, totals->columns[i], row, out, err);
        if (rc == 0 && st->is_number[i] && pr_number_at(totals->columns[i], row, &v))
            rc = pr_tip(v, out, err);
        if (rc == 0) rc = mu_buf_append_u8(out, '\n', err);
    }
    return rc;
}

static int pr_vertical_end(fmt_writer *w, const fmt_result_info *info, mu_buf *out,
                           mu_err *err) {
    (void)info;
    return pr_vertical_suffix(w->state, out, err);
}

/* ------------------------------------------------------------------ */
/* Pretty, PrettyCompact, PrettyCompactMonoBlock, PrettySpace           */
/*
 * ClickHouse glues consecutive blocks of a result into one block before
 * writing it (squash_consecutive_ms, or MonoBlock), so the rows are kept
 * and the table is drawn once, when the totals or the end arrive. Of a block
 * only the first PR_HEAD_ROWS and the last PR_TAIL_ROWS rows are displayed,
 * so only those are kept: `head` holds the first rows, `tail` the later ones
 * and is cut back to its last PR_TAIL_ROWS rows whenever it would pass
 * twice that. Invariant: tail holds the last min(block_rows - head_rows,
 * PR_TAIL_ROWS) rows of the result or more.
 */
/* ------------------------------------------------------------------ */

/* One displayed row: the columns it is in and its index there. */
typedef struct pr_ref {
    ty_column *const *cols;
    uint32_t row;
} pr_ref;

/* A block as PrettyBlockOutputFormat::writeChunk sees it: num_rows rows,
 * `shown` of them laid out (all, or the first and the last when the middle
 * is cut). */
typedef struct pr_block {
    uint64_t num_rows;
    uint32_t shown;
    const pr_ref *refs;
} pr_block;

/* The index in the block of the k-th displayed row. */
static uint64_t pr_block_row(const pr_block *b, uint32_t k) {
    return b->num_rows > b->shown && k >= PR_HEAD_ROWS ? b->num_rows - (b->shown - k) : k;
}

/* What calculateWidths finds for a block. */
typedef struct pr_layout {
    size_t number_width;  /* row number and ". " of the largest number */
    size_t *widths;       /* per column: cell width inside its margins */
    size_t *name_widths;  /* per column: width of the (cut) name, at most the pad width */
    size_t *name_ends;    /* per column: end of its name in `names` */
    size_t *cell_ends;    /* per column: end of its value in pr_state.line (one row) */
    size_t *offsets;      /* per column: how much of the value is written */
    mu_buf names;
    bool has_newlines;
} pr_layout;

static void pr_layout_free(pr_layout *l) {
    free(l->widths);
    mu_buf_deinit(&l->names);
}

/* Widths of the displayed values, measured line by line on at most
 * 4 * max_value_width bytes, with tab stops counted from the start of the
 * cell (the margin, the row number and the columns before it); each
 * column is as wide as its widest value or its name, at most the pad width
 * (wider values stick out of the grid). */
static int pr_layout_compute(pr_state *st, const pr_block *b, pr_layout *l, mu_err *err) {
    uint32_t n = st->column_count;
    mu_buf_init(&l->names, 0);
    l->widths = calloc((size_t)5 * (n ? n : 1), sizeof(size_t));
    if (l->widths == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a Pretty table");
    l->name_widths = l->widths + n;
    l->name_ends = l->widths + 2 * (size_t)n;
    l->cell_ends = l->widths + 3 * (size_t)n;
    l->offsets = l->widths + 4 * (size_t)n;
    l->number_width = pr_digits(b->num_rows + st->total_rows) + 2;
    size_t prefix = l->number_width + (st->style == PR_SPACE ? 1 : 2);
    int rc = mu_buf_reserve(&l->names, 1, err); /* data is never NULL below */
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        size_t width = 0;
        for (uint32_t k = 0; rc == 0 && k < b->shown; k++) {
            mu_buf_clear(&st->text);
            rc = pr_text(st, b->refs[k].cols[i], b->refs[k].row, &st->text, err);
            size_t len = MU_MIN(st->text.length_bytes, (size_t)PR_VALUE_WIDTH_MAX * 4);
            const uint8_t *s = st->text.data;
            for (size_t from = 0; rc == 0 && from < len;) {
                const uint8_t *nl = memchr(s + from, '\n', len - from);
                size_t end = nl ? (size_t)(nl - s) : len;
                l->has_newlines |= nl != NULL;
                size_t w = pr_width(s + from, end - from, prefix);
                width = MU_MAX(width, MU_MIN(w, (size_t)MU_MIN(PR_PAD_WIDTH_MAX,
                                                               PR_VALUE_WIDTH_MAX)));
                from = end < len ? end + 1 : end;
            }
        }
        size_t name_width = 0;
        if (rc == 0)
            rc = pr_cut_name(st->names[i], MU_MAX(width, PR_NAME_CUT_TO), &l->names, &name_width,
                             err);
        l->name_ends[i] = l->names.length_bytes;
        l->name_widths[i] = MU_MIN(name_width, PR_PAD_WIDTH_MAX);
        l->widths[i] = MU_MAX(width, l->name_widths[i]);
        prefix += l->widths[i] + 3;
    }
    return rc;
}

enum { PR_HEADER_BEGIN, PR_HEADER_END, PR_SEPARATOR, PR_ROWS_END, PR_FOOTER_BEGIN, PR_FOOTER_END };

/* The horizontal rules: ┏━┳┓ above the names, ┡━╇┩ under them, ├─┼┤
 * between rows, └─┴┘ at the end, ┢━╈┪ ┗━┻┛ around repeated names. Compact
 * draws only the end rule (its names are in the rules); Space only line
 * feeds around the names. */
static int pr_rule(const pr_state *st, const pr_layout *l, int which, mu_buf *out,
                   mu_err *err) {
    static const char *const grid[6][4] = {
        {"┏", "━", "┳", "┓"}, {"┡", "━", "╇", "┩"}, {"├", "─", "┼", "┤"},
        {"└", "─", "┴", "┘"}, {"┢", "━", "╈", "┪"}, {"┗", "━", "┻", "┛"},
    };
    if (st->style == PR_SPACE)
        return which == PR_HEADER_END || which == PR_FOOTER_BEGIN || which == PR_FOOTER_END
                   ? mu_buf_append_u8(out, '\n', err)
                   : 0;
    if (st->style == PR_COMPACT && which != PR_ROWS_END) return 0;
    int rc = pr_repeat(out, " ", l->number_width, err);
    if (rc == 0) rc = mu_buf_append_str(out, grid[which][0], err);
    for (uint32_t i = 0; rc == 0 && i < st->column_count; i++) {
        if (i > 0) rc = mu_buf_append_str(out, grid[which][2], err);
        if (rc == 0) rc = pr_repeat(out, grid[which][1], l->widths[i] + 2, err);
    }
    if (rc == 0) rc = mu_buf_append_str(out, grid[which][3], err);
    return rc ? rc : mu_buf_append_u8(out, '\n', err);
}

/* The names: ┃ a ┃ b ┃ (Pretty), ┌─a─┬─b─┐ or └─a─┴─b─┘ (Compact, padded
 * with ─), or spaced (Space); numbers' names are aligned right. */
static int pr_names(const pr_state *st, const pr_layout *l, bool top, mu_buf *out,
                    mu_err *err) {
    bool compact = st->style == PR_COMPACT, full = st->style == PR_FULL;
    const char *between = full ? " ┃ " : compact ? (top ? "─┬─" : "─┴─") : "   ";
    int rc = pr_repeat(out, " ", l->number_width, err);
    if (rc == 0) rc = mu_buf_append_str(out, full ? "┃ " : compact ? (top ? "┌─" : "└─") : " ",
                                        err);
    for (uint32_t i = 0; rc == 0 && i < st->column_count; i++) {
        size_t from = i ? l->name_ends[i - 1] : 0, pad = l->widths[i] - l->name_widths[i];
        bool right = pr_align_right(st->types[i]);
        if (i > 0) rc = mu_buf_append_str(out, between, err);
        if (rc == 0 && right) rc = pr_repeat(out, compact ? PR_DASH : " ", pad, err);
        if (rc == 0) rc = mu_buf_append(out, l->names.data + from, l->name_ends[i] - from, err);
        if (rc == 0 && !right) rc = pr_repeat(out, compact ? PR_DASH : " ", pad, err);
    }
    if (rc == 0 && st->style != PR_SPACE)
        rc = mu_buf_append_str(out, full ? " ┃" : top ? "─┐" : "─┘", err);
    return rc ? rc : mu_buf_append_u8(out, '\n', err);
}

/* The line that stands for the rows cut from the middle: ─ ─ ─ ... */
static int pr_filler(const pr_state *st, const pr_layout *l, mu_buf *out, mu_err *err) {
    size_t size = 0;
    for (uint32_t i = 0; i < st->column_count; i++) size += l->widths[i] + 3;
    size = st->style == PR_SPACE ? (size >= 2 ? size - 2 : 0) : size + 1;
    int rc = pr_repeat(out, " ", l->number_width, err);
    for (size_t i = 0; rc == 0 && i < size; i++)
        rc = i % 2 ? mu_buf_append_u8(out, ' ', err) : mu_buf_append_str(out, PR_DASH, err);
    return rc ? rc : mu_buf_append_u8(out, '\n', err);
}

/* One line of a cell (writeValueWithPadding): a margin (↳ on continued
 * lines), the line padded to the column, then ↴ if more lines follow or
 * the closing margin. A line wider than cut_to is cut to max_value_width
 * columns and ends with ⋯ in place of the margin. `offset` advances past
 * the line and its line feed. */
static int pr_cell(const uint8_t *s, size_t size, size_t *offset, size_t pad_to, size_t cut_to,
                   size_t prefix, bool right, mu_buf *out, mu_err *err) {
    MU_ASSERT(*offset <= size);
    bool continued = *offset > 0 && *offset < size, cut = false;
    size_t from = *offset, length = 0, width = 0;
    if (*offset < size) {
        const uint8_t *nl = memchr(s + from, '\n', size - from);
        size_t end = nl ? (size_t)(nl - s) : size;
        length = end - from;
        width = pr_width(s + from, length, prefix);
        *offset = end;
    }
    if (cut_to && width > cut_to) {
        cut = true;
        length = pr_measure(s + from, length, prefix, PR_VALUE_WIDTH_MAX, true);
        width = PR_VALUE_WIDTH_MAX;
    }
    size_t pad = pad_to > width ? pad_to - width : 0;
    int rc = continued ? mu_buf_append_str(out, PR_CONTINUATION, err)
                       : mu_buf_append_u8(out, ' ', err);
    if (rc == 0 && right) rc = pr_repeat(out, " ", pad, err);
    if (rc == 0 && length) rc = mu_buf_append(out, s + from, length, err);
    if (rc == 0 && cut) rc = mu_buf_append_str(out, PR_ELLIPSIS, err);
    if (rc == 0 && !right) rc = pr_repeat(out, " ", pad, err);
    if (rc == 0 && *offset != size) rc = mu_buf_append_str(out, PR_LINE_FEED, err);
    else if (rc == 0 && !cut) rc = mu_buf_append_u8(out, ' ', err);
    if (*offset < size) ++*offset;
    MU_ASSERT(*offset <= size);
    return rc;
}

/* One displayed row: as many lines as its tallest value, the row number
 * on the first, and the tip after a lone large number. */
static int pr_table_row(pr_state *st, const pr_block *b, const pr_layout *l, uint32_t k,
                        size_t cut_to, mu_buf *out, mu_err *err) {
    const pr_ref *ref = &b->refs[k];
    uint32_t n = st->column_count;
    mu_buf_clear(&st->line);
    int rc = mu_buf_reserve(&st->line, 1, err); /* data is never NULL below */
    for (uint32_t j = 0; rc == 0 && j < n; j++) {
        rc = pr_text(st, ref->cols[j], ref->row, &st->line, err);
        l->cell_ends[j] = st->line.length_bytes;
        l->offsets[j] = 0;
    }
    size_t prefix = l->number_width + (st->style == PR_SPACE ? 1 : 2);
    double tip_value = 0;
    bool tip = rc == 0 && st->tip && b->num_rows == 1 && n == 1 &&
               pr_number_at(ref->cols[0], ref->row, &tip_value);
    for (bool first = true, done = false; rc == 0 && !done; first = false) {
        if (first) {
            char number[32];
            int len = snprintf(number, sizeof number, "%llu. ",
                               (unsigned long long)(pr_block_row(b, k) + 1 + st->total_rows));
            rc = pr_repeat(out, " ", l->number_width - (size_t)len, err);
            if (rc == 0) rc = mu_buf_append(out, number, (size_t)len, err);
        } else {
            rc = pr_repeat(out, " ", l->number_width, err);
        }
        done = true;
        for (uint32_t j = 0; rc == 0 && j < n; j++) {
            size_t from = j ? l->cell_ends[j - 1] : 0, size = l->cell_ends[j] - from;
            if (st->style != PR_SPACE) rc = mu_buf_append_str(out, "│", err);
            else if (j > 0) rc = mu_buf_append_u8(out, ' ', err);
            if (rc == 0)
                rc = pr_cell(st->line.data + from, size, &l->offsets[j], l->widths[j], cut_to,
                             prefix, pr_align_right(st->types[j]), out, err);
            done &= l->offsets[j] == size;
        }
        if (rc == 0 && st->style != PR_SPACE) rc = mu_buf_append_str(out, "│", err);
        if (rc == 0 && tip) rc = pr_tip(tip_value, out, err);
        if (rc == 0) rc = mu_buf_append_u8(out, '\n', err);
    }
    return rc;
}

/* The grid: names, rows (with the filler where rows were cut), then the
 * names again under 50 rows or more, else the closing rule. A lone value
 * is never cut. */
static int pr_block_table(pr_state *st, const pr_block *b, const pr_layout *l, mu_buf *out,
                          mu_err *err) {
    size_t cut_to = b->num_rows == 1 && st->column_count == 1 && st->total_rows == 0
                        ? 0
                        : PR_VALUE_WIDTH_MAX;
    int rc = pr_rule(st, l, PR_HEADER_BEGIN, out, err);
    if (rc == 0) rc = pr_names(st, l, true, out, err);
    if (rc == 0) rc = pr_rule(st, l, PR_HEADER_END, out, err);
    bool filled = false;
    for (uint32_t k = 0; rc == 0 && k < b->shown && st->displayed_rows < PR_MAX_ROWS; k++) {
        uint64_t row = pr_block_row(b, k);
        if (row != k && !filled) {
            filled = true;
            rc = pr_rule(st, l, PR_SEPARATOR, out, err);
            if (rc == 0) rc = pr_filler(st, l, out, err);
        }
        if (rc == 0 && row != 0) rc = pr_rule(st, l, PR_SEPARATOR, out, err);
        if (rc == 0) rc = pr_table_row(st, b, l, k, cut_to, out, err);
        st->displayed_rows++;
    }
    if (rc == 0 && b->num_rows >= PR_FOOTER_MIN_ROWS) {
        rc = pr_rule(st, l, PR_FOOTER_BEGIN, out, err);
        if (rc == 0) rc = pr_names(st, l, false, out, err);
        if (rc == 0) rc = pr_rule(st, l, PR_FOOTER_END, out, err);
    } else if (rc == 0) {
        rc = pr_rule(st, l, PR_ROWS_END, out, err);
    }
    st->total_rows += b->num_rows;
    return rc;
}

/* writeChunk: a short block of at least 5 columns that is wide or has
 * multi-line values switches the result to the Vertical layout for good
 * (then its rows count for neither the suffix nor the row numbers). */
static int pr_write_block(pr_state *st, const pr_block *b, mu_buf *out, mu_err *err) {
    pr_layout l = {0};
    int rc = pr_layout_compute(st, b, &l, err);
    size_t table_width = 0;
    for (uint32_t i = 0; rc == 0 && i < st->column_count; i++) table_width += l.widths[i];
    if (rc == 0 && st->displayed_rows == 0 && b->num_rows <= PR_FALLBACK_ROWS_MAX &&
        st->column_count >= PR_FALLBACK_COLUMNS_MIN &&
        (table_width >= PR_FALLBACK_WIDTH_MIN || l.has_newlines))
        st->use_vertical = true;
    if (rc == 0 && st->use_vertical) {
        for (uint32_t k = 0; rc == 0 && k < b->shown && st->displayed_rows < PR_MAX_ROWS; k++) {
            if (k > 0) rc = pr_vertical_between(st, out, err);
            if (rc == 0) rc = pr_vertical_row(st, b->refs[k].cols, b->refs[k].row, out, err);
            st->displayed_rows++;
        }
    } else if (rc == 0) {
        rc = pr_block_table(st, b, &l, out, err);
    }
    pr_layout_free(&l);
    return rc;
}

/* The result's block, then "Showed N out of M rows." when it reached the
 * limit; once. */
static int pr_write_result(pr_state *st, mu_buf *out, mu_err *err) {
    if (st->block_written) return 0;
    st->block_written = true;
    int rc = 0;
    if (st->block_rows > 0) {
        pr_block b = {.num_rows = st->block_rows,
                      .shown = (uint32_t)MU_MIN(st->block_rows, (uint64_t)PR_MAX_ROWS)};
        pr_ref *refs = malloc(sizeof(pr_ref) * b.shown);
        if (refs == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a Pretty table");
        MU_ASSERT(st->head_rows + st->tail_rows >= b.shown);
        for (uint32_t k = 0; k < b.shown; k++) {
            refs[k].cols = k < st->head_rows ? st->head : st->tail;
            refs[k].row = k < st->head_rows ? k : st->tail_rows - (b.shown - k);
        }
        b.refs = refs;
        rc = pr_write_block(st, &b, out, err);
        free(refs);
    }
    if (rc == 0 && st->total_rows >= PR_MAX_ROWS) {
        if (st->style == PR_SPACE) rc = mu_buf_append_u8(out, '\n', err);
        if (rc == 0)
            rc = mu_buf_printf(out, err, "Showed %llu out of %llu rows.\n",
                               (unsigned long long)st->displayed_rows,
                               (unsigned long long)st->total_rows);
    }
    return rc;
}

static int pr_pretty_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    (void)out;
    int rc = pr_state_create(w, schema, err);
    pr_state *st = w->state;
    if (rc == 0) rc = pr_labels(st, err);
    if (rc != 0) return rc;
    st->style = w->kind == FMT_PRETTY ? PR_FULL : w->kind == FMT_PRETTY_SPACE ? PR_SPACE
                                                                              : PR_COMPACT;
    st->tip = st->column_count == 1 && pr_is_number(st->types[0]);
    uint32_t n = st->column_count;
    st->head = calloc(n ? n : 1, sizeof(ty_column *));
    st->tail = calloc(n ? n : 1, sizeof(ty_column *));
    if (st->head == NULL || st->tail == NULL)
        return MU_ERR(err, MU_ENOMEM, "out of memory for a %s writer", fmt_name(w->kind));
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        rc = ty_column_create(st->types[i], NULL, &st->head[i], err);
        if (rc == 0) rc = ty_column_create(st->types[i], NULL, &st->tail[i], err);
    }
    return rc;
}

/* Appends visible rows [from, from + count) of b to the kept columns. */
static int pr_keep(pr_state *st, ty_column **dst, const ty_batch *b, uint32_t from,
                   uint32_t count, mu_err *err) {
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && count > 0 && i < st->column_count; i++)
        rc = b->selection
                 ? ty_column_append_gather(dst[i], b->columns[i], b->selection + from, count, err)
                 : ty_column_append_rows_from(dst[i], b->columns[i], from, count, err);
    return rc;
}

/* Cuts the tail back to its last `keep` rows. */
static int pr_tail_cut(pr_state *st, uint32_t keep, mu_err *err) {
    MU_ASSERT(keep <= st->tail_rows);
    for (uint32_t i = 0; i < st->column_count; i++) {
        ty_column *c;
        int rc = ty_column_create(st->types[i], NULL, &c, err);
        if (rc == 0)
            rc = ty_column_append_rows_from(c, st->tail[i], st->tail_rows - keep, keep, err);
        if (rc != 0) {
            ty_column_destroy(c);
            return rc;
        }
        ty_column_destroy(st->tail[i]);
        st->tail[i] = c;
    }
    st->tail_rows = keep;
    return 0;
}

static int pr_pretty_rows(fmt_writer *w, const ty_batch *batch, mu_buf *out, mu_err *err) {
    (void)out;
    pr_state *st = w->state;
    MU_ASSERT(batch->column_count == st->column_count);
    uint32_t visible = ty_batch_visible_rows(batch);
    uint32_t head = MU_MIN(PR_HEAD_ROWS - st->head_rows, visible), rest = visible - head;
    int rc = pr_keep(st, st->head, batch, 0, head, err);
    if (rc != 0) return rc;
    st->head_rows += head;
    uint32_t from = head;
    if (rest >= PR_TAIL_ROWS) {
        for (uint32_t i = 0; i < st->column_count; i++) ty_column_clear(st->tail[i]);
        st->tail_rows = 0;
        from += rest - PR_TAIL_ROWS;
        rest = PR_TAIL_ROWS;
    } else if (st->tail_rows + rest > 2 * PR_TAIL_ROWS) {
        rc = pr_tail_cut(st, PR_TAIL_ROWS, err);
    }
    if (rc == 0) rc = pr_keep(st, st->tail, batch, from, rest, err);
    if (rc != 0) return rc;
    st->tail_rows += rest;
    st->block_rows += visible;
    MU_ASSERT(st->tail_rows <= 2 * PR_TAIL_ROWS);
    return 0;
}

/* "\nTotals:\n" and the totals row as a block of its own, after the
 * result (whose rows still count against the limit of displayed rows). */
static int pr_pretty_totals(fmt_writer *w, const ty_batch *totals, mu_buf *out, mu_err *err) {
    pr_state *st = w->state;
    int rc = pr_write_result(st, out, err);
    if (rc != 0 || ty_batch_visible_rows(totals) == 0) return rc;
    MU_ASSERT(totals->column_count == st->column_count);
    pr_ref ref = {totals->columns, totals->selection ? totals->selection[0] : 0};
    pr_block b = {.num_rows = 1, .shown = 1, .refs = &ref};
    st->total_rows = 0;
    rc = mu_buf_append_str(out, "\nTotals:\n", err);
    return rc ? rc : pr_write_block(st, &b, out, err);
}

static int pr_pretty_end(fmt_writer *w, const fmt_result_info *info, mu_buf *out, mu_err *err) {
    (void)info;
    return pr_write_result(w->state, out, err);
}

/* ------------------------------------------------------------------ */
/* Markdown, TSKV, Values, Null                                        */
/* ------------------------------------------------------------------ */

/* "| a | b |" with the names escaped as TSV, then "|:-|-:|" (numbers and
 * dates aligned right); written for an empty result too. */
static int pr_markdown_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    int rc = pr_state_create(w, schema, err);
    pr_state *st = w->state;
    if (rc == 0) rc = mu_buf_append(out, "| ", 2, err);
    for (uint32_t i = 0; rc == 0 && i < st->column_count; i++) {
        const char *name = st->names[i];
        rc = pr_escape((const uint8_t *)name, strlen(name), '\'', out, err);
        if (rc == 0) rc = mu_buf_append_str(out, i + 1 == st->column_count ? " |" : " | ", err);
    }
    if (rc == 0) rc = mu_buf_append(out, "\n|", 2, err);
    for (uint32_t i = 0; rc == 0 && i < st->column_count; i++)
        rc = mu_buf_append_str(out, pr_align_right(st->types[i]) ? "-:|" : ":-|", err);
    return rc ? rc : mu_buf_append_u8(out, '\n', err);
}

/* "| v1 | v2 |" per row, values as TSV writes them. Markdown has no totals. */
static int pr_markdown_rows(fmt_writer *w, const ty_batch *batch, mu_buf *out, mu_err *err) {
    pr_state *st = w->state;
    MU_ASSERT(batch->column_count == st->column_count);
    uint32_t rows = ty_batch_visible_rows(batch);
    int rc = 0;
    for (uint32_t v = 0; rc == 0 && v < rows; v++) {
        uint32_t row = batch->selection ? batch->selection[v] : v;
        rc = mu_buf_append(out, "| ", 2, err);
        for (uint32_t i = 0; rc == 0 && i < batch->column_count; i++) {
            if (i > 0) rc = mu_buf_append(out, " | ", 3, err);
            if (rc == 0) rc = pr_escaped(st, batch->columns[i], row, out, err);
        }
        if (rc == 0) rc = mu_buf_append(out, " |\n", 3, err);
    }
    return rc;
}

/* TSKV keys: the name escaped with '=' as the quote character, then '='. */
static int pr_tskv_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    (void)out;
    int rc = pr_state_create(w, schema, err);
    pr_state *st = w->state;
    if (rc != 0) return rc;
    st->keys = mu_arena_calloc(st->arena, st->column_count ? st->column_count : 1,
                               sizeof(char *), err);
    if (st->keys == NULL) return pr_alloc_failed(err);
    for (uint32_t i = 0; rc == 0 && i < st->column_count; i++) {
        mu_buf_clear(&st->line);
        rc = pr_escape((const uint8_t *)st->names[i], strlen(st->names[i]), '=', &st->line, err);
        if (rc == 0) rc = mu_buf_append_u8(&st->line, '=', err);
        if (rc == 0) {
            st->keys[i] = mu_arena_strndup(st->arena, (const char *)st->line.data,
                                           st->line.length_bytes, err);
            if (st->keys[i] == NULL) rc = pr_alloc_failed(err);
        }
    }
    return rc;
}

static int pr_tskv_write(pr_state *st, const ty_batch *batch, mu_buf *out, mu_err *err) {
    MU_ASSERT(batch->column_count == st->column_count);
    uint32_t rows = ty_batch_visible_rows(batch);
    int rc = 0;
    for (uint32_t v = 0; rc == 0 && v < rows; v++) {
        uint32_t row = batch->selection ? batch->selection[v] : v;
        for (uint32_t i = 0; rc == 0 && i < batch->column_count; i++) {
            if (i > 0) rc = mu_buf_append_u8(out, '\t', err);
            if (rc == 0) rc = mu_buf_append_str(out, st->keys[i], err);
            if (rc == 0) rc = pr_escaped(st, batch->columns[i], row, out, err);
        }
        if (rc == 0) rc = mu_buf_append_u8(out, '\n', err);
    }
    return rc;
}

static int pr_tskv_rows(fmt_writer *w, const ty_batch *batch, mu_buf *out, mu_err *err) {
    return pr_tskv_write(w->state, batch, out, err);
}

/* Totals after an empty line, as TabSeparated writes them. */
static int pr_tskv_totals(fmt_writer *w, const ty_batch *totals, mu_buf *out, mu_err *err) {
    if (ty_batch_visible_rows(totals) == 0) return 0;
    int rc = mu_buf_append_u8(out, '\n', err);
    if (rc != 0) return rc;
    ty_batch first = *totals; /* the first row only, as ClickHouse keeps */
    if (first.selection) first.selection_count = 1;
    else first.row_count = 1;
    return pr_tskv_write(w->state, &first, out, err);
}

static int pr_values_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    (void)out;
    return pr_state_create(w, schema, err);
}

/* (v1,v2),(v1,v2): every value quoted as in SQL, NULL as NULL, no line
 * feed at all. Values has no totals. */
static int pr_values_rows(fmt_writer *w, const ty_batch *batch, mu_buf *out, mu_err *err) {
    pr_state *st = w->state;
    unsigned flags = TY_RENDER_QUOTED | st->render_flags;
    uint32_t rows = ty_batch_visible_rows(batch);
    int rc = 0;
    for (uint32_t v = 0; rc == 0 && v < rows; v++) {
        uint32_t row = batch->selection ? batch->selection[v] : v;
        if (w->rows > 0 || v > 0) rc = mu_buf_append_u8(out, ',', err);
        if (rc == 0) rc = mu_buf_append_u8(out, '(', err);
        for (uint32_t i = 0; rc == 0 && i < batch->column_count; i++) {
            if (i > 0) rc = mu_buf_append_u8(out, ',', err);
            if (rc == 0) rc = ty_column_render_text(batch->columns[i], row, flags, out, err);
        }
        if (rc == 0) rc = mu_buf_append_u8(out, ')', err);
    }
    return rc;
}

static const fmt__writer_vt pr_pretty_vt = {pr_pretty_begin, pr_pretty_rows, pr_pretty_totals,
                                            pr_pretty_end, pr_destroy};
static const fmt__writer_vt pr_vertical_vt = {pr_vertical_begin, pr_vertical_rows,
                                              pr_vertical_totals, pr_vertical_end, pr_destroy};
static const fmt__writer_vt pr_markdown_vt = {pr_markdown_begin, pr_markdown_rows, NULL, NULL,
                                              pr_destroy};
static const fmt__writer_vt pr_tskv_vt = {pr_tskv_begin, pr_tskv_rows, pr_tskv_totals, NULL,
                                          pr_destroy};
static const fmt__writer_vt pr_values_vt = {pr_values_begin, pr_values_rows, NULL, NULL,
                                            pr_destroy};
/* Null: the result is consumed and nothing is written. */
static const fmt__writer_vt pr_null_vt = {NULL, NULL, NULL, NULL, NULL};

const fmt__writer_vt *fmt__writer_pretty(fmt_kind kind) {
    switch (kind) {
    case FMT_PRETTY: case FMT_PRETTY_COMPACT: case FMT_PRETTY_COMPACT_MONO_BLOCK:
    case FMT_PRETTY_SPACE:
        return &pr_pretty_vt;
    case FMT_VERTICAL: return &pr_vertical_vt;
    case FMT_MARKDOWN: return &pr_markdown_vt;
    case FMT_TSKV: return &pr_tskv_vt;
    case FMT_VALUES: return &pr_values_vt;
    case FMT_NULL: return &pr_null_vt;
    default: return NULL;
    }
}
