/* hash_test.c: goal: every hash function of fn_hash.c returns ClickHouse's
 * exact value: strings of every length class (CityHash's 0-16, 17-32,
 * 33-64 and 64+ paths, SipHash's 8-byte blocks), numbers of each width,
 * dates, enums, FixedString padding, arrays, maps and several arguments
 * combined; NULL arguments give NULL; unsupported types fail at bind.
 * Reference values were computed by clickhouse-server (cityHash64,
 * sipHash64/128, halfMD5, murmurHash*, intHash*) or by the reference
 * libraries (libxxhash, zlib) for functions it lacks.
 */
#define ET_STYLE_CALL_SPEC
#include "exec_test_util.h"

/* 300 printable bytes; the tests hash its prefixes. */
static const char long_text[] =
    "!(/7>EMT[cjqy&-5<CKRYahow$+3:AIPW_fmu\")18?GNU]dkszy/6=ELS[biqx%-4;CJQY`gov#+29A"
    "HOW^emt!)07?FMUxckryy.5=DKSZaipw%,3;BIQX_gnu#*19@GOV]els!(/7>EMT[cjqy&-5<CKRYaho"
    "w$+3:AIPW_fmu\")18?GNU]dkszy/6=ELS[biqx%-4;CJQY`gov#+29AHOW^emt!)07?FMUxckryy.5="
    "DKSZaipw%,3;BIQX_gnu#*19@GOV]els!(/7>EMT[cjqy&-5<CKRYahow$+3:A";

/* Lengths 0..300 were checked against clickhouse-server; these rows keep
 * one length of each code path. */
static void test_string_lengths(void **state) {
    (void)state;
    static const struct {
        size_t n;
        const char *city, *sip, *m3_32, *m3_64, *m2_32, *m2_64, *half_md5;
    } rows[] = {
        {0, "11160318154034397263", "2202906307356721367", "0",
         "0", "0", "0", "15284527576400310788"},
        {1, "673627790127086010", "15122224960183763570", "1919294708",
         "2476495437363187618", "3843125340", "8532415787641010193", "10390896030935828416"},
        {3, "14572980077720672570", "14197614312007024087", "1410711547",
         "189406718911175951", "2956845353", "2036342477676924721", "4545193138539628830"},
        {4, "511171378288708829", "7769471958095147797", "2239909533",
         "1132906321087639752", "3851146799", "12096039760540488860", "16215522419866488405"},
        {8, "12907997380022345481", "12398533984068555310", "2915087705",
         "14683530468555298508", "2962326524", "180407813344596095", "11784089759823823555"},
        {9, "15201228893028369196", "3429699224583040027", "1989863081",
         "844428521397680712", "4259093294", "469082065055220511", "17944198954842049647"},
        {16, "666847433842882809", "2256311179077582394", "1677524808",
         "41238648338795746", "696242473", "9371881763327242696", "5551167037377817914"},
        {17, "12534125188265293218", "12168369297884495085", "1273685232",
         "16264168057828139507", "2460345800", "2567994347518358738", "1072784925701293120"},
        {32, "3040933803131032164", "8567636838949492782", "96619736",
         "5613596613625059446", "20233092", "18027471837125759080", "460495365091757068"},
        {33, "15477134301117755669", "297090901962577655", "2496964182",
         "8953634298898333971", "2341583446", "4681923819005849483", "16349428901882574679"},
        {64, "5252477351643859734", "15116233413941460475", "3705083350",
         "15209258466324025963", "3891629132", "8374164649766138171", "16701377828515305378"},
        {65, "8439492137279831804", "15660723849526565277", "3680081877",
         "4623653057075411305", "3935317935", "7692514455837346387", "9762441343621054779"},
        {127, "15558029258415801273", "6140179500358911507", "1665694488",
         "6102827344960374928", "404714526", "5276954637722493265", "16519909536113648444"},
        {128, "9243218552710003618", "10325586294493628261", "1991213153",
         "2041834825370689390", "2681869925", "3093255555268749426", "53930890844776415"},
        {129, "11712286645310431628", "4038032093643476269", "518790318",
         "13958815031694752522", "233876795", "2747812429535294372", "10231235980907941856"},
        {300, "17180427522745698020", "10404317733741519477", "1541730475",
         "2619044626552816619", "1824505012", "6122819984446571310", "18393224185301526769"},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(rows); i++) {
        size_t n = rows[i].n;
        EQ(rows[i].city, q("cityHash64", "b", long_text, n));
        EQ(rows[i].sip, q("sipHash64", "b", long_text, n));
        EQ(rows[i].m3_32, q("murmurHash3_32", "b", long_text, n));
        EQ(rows[i].m3_64, q("murmurHash3_64", "b", long_text, n));
        EQ(rows[i].m2_32, q("murmurHash2_32", "b", long_text, n));
        EQ(rows[i].m2_64, q("murmurHash2_64", "b", long_text, n));
        EQ(rows[i].half_md5, q("halfMD5", "b", long_text, n));
    }
}

static void test_string_lengths_wide(void **state) {
    (void)state;
    static const struct {
        size_t n;
        const char *m3_128, *sip128;
    } wide[] = {
        {0,
         "00000000000000000000000000000000",
         "32B5C1DB56A683E9E5B5B6A8CBED11F7"},
        {1,
         "3D86A2F8B2D011149F094A57C8974F36",
         "6DA67B1D523F97A41F2437E828D04B75"},
        {7,
         "1DA9E0BF937C9E392DED072ACB1340B8",
         "663B38C12D25D6A81EBF239AEED31A02"},
        {8,
         "6BE10A5BB275FCEDA7F7D74198143A26",
         "6B340C2C4C2A74E045E60FCCBB5A644C"},
        {9,
         "7CE9F6A7C5CEF4283413EB8F81CD4C23",
         "08C263C0B2F6BA1B13AED73FF74B2234"},
        {15,
         "A7682B59AE1B872DD988ADAC4241F385",
         "65684825133468C164ACF30E54933D6B"},
        {16,
         "194B4B1759EA3C74FB070B1E0C68AE74",
         "B2767F86DA0A8ACC8808D69DCA0DDAD3"},
        {17,
         "59251D6BBF2C9A18AAC4040D12C22FF9",
         "7FC4E7BFF4525E329278CB6793E9809A"},
        {31,
         "F25BB94F3B6BD712448CAC3C5718AAAD",
         "D20D07665CE4B263BC77F005A7443F04"},
        {300,
         "071FAD410D33014EEC9C3E693B84596A",
         "B2CE3B45CF86508EC72CCEFC1509331E"},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(wide); i++) {
        HEX(wide[i].m3_128, q("murmurHash3_128", "b", long_text, wide[i].n));
        HEX(wide[i].sip128, q("sipHash128", "b", long_text, wide[i].n));
    }
    static const struct {
        size_t n;
        const char *xx32, *xx64;
    } xx[] = {
        {0, "46947589", "17241709254077376921"},     {1, "2622398324", "11431264640132263096"},
        {3, "2714732393", "17899371669906680311"},   {4, "1884716300", "17178334059048978694"},
        {5, "2387700943", "17008538982433437557"},   {15, "2263207938", "5713870109481134213"},
        {16, "2378832815", "14615146301632634910"},  {17, "2603088638", "4258138909013621366"},
        {31, "3828886293", "16176031017717021070"},  {32, "3579781317", "3222045258014051669"},
        {33, "1931918660", "12428057787174722699"},  {100, "107154080", "2901671361469762538"},
        {300,
         "1626486014",
         "13923686608623295892"},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(xx); i++) {
        EQ(xx[i].xx32, q("xxHash32", "b", long_text, xx[i].n));
        EQ(xx[i].xx64, q("xxHash64", "b", long_text, xx[i].n));
    }
}

static void test_known_values(void **state) {
    (void)state;
    EQ("2202906307356721367", q("sipHash64", "s", ""));
    EQ("UInt64", et.type_name);
    EQ("10142490492830962361", q("sipHash64", "s", "hello"));
    HEX("54F0C4900581E097EDA2332258DC211B", q("sipHash128", "s", "hello"));
    EQ("FixedString(16)", et.type_name);
    EQ("6719722671305337462", q("halfMD5", "s", "hello"));
    EQ("2578220239953316063", q("cityHash64", "s", "hello"));
    EQ("613153351", q("murmurHash3_32", "s", "hello"));
    EQ("UInt32", et.type_name);
    EQ("10432086992150038043", q("murmurHash3_64", "s", "hello"));
    EQ("3848350155", q("murmurHash2_32", "s", "hello"));
    EQ("2191231550387646743", q("murmurHash2_64", "s", "hello"));
    EQ("4211111929", q("xxHash32", "s", "hello"));
    EQ("2794345569481354659", q("xxHash64", "s", "hello"));
    EQ("1370321616960726056", q("sipHash64", "k", "FixedString(3)", "ab"));
    EQ("1343103100", q("intHash32", "u", U(1)));
    EQ("10577349846663553072", q("intHash64", "u", U(1)));
    EQ("3545659993", q("intHash32", "i", I(-1)));
    EQ("4761183170873013810", q("intHash64", "k", "UInt64", "0"));
}

static void test_digests(void **state) {
    (void)state;
    HEX("5D41402ABC4B2A76B9719D911017C592", q("MD5", "s", "hello"));
    EQ("FixedString(16)", et.type_name);
    HEX("DA39A3EE5E6B4B0D3255BFEF95601890AFD80709", q("SHA1", "s", ""));
    EQ("FixedString(20)", et.type_name);
    HEX("23097D223405D8228642A477BDA255B32AADBCE4BDA0B3F7E36C9DA7", q("SHA224", "s", "abc"));
    HEX("BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD",
        q("SHA256", "s", "abc"));
    HEX("CB00753F45A35E8BB5A03D699AC65007272C32AB0EDED163"
        "1A8B605A43FF5BED8086072BA1E7CC2358BAECA134C825A7",
        q("SHA384", "s", "abc"));
    EQ("FixedString(64)", (q("SHA512", "s", "abc"), et.type_name));
    HEX("0CC175B9C0F1B6A831C399E269772661", q("MD5", "k", "FixedString(1)", "a"));
    EQ("\\N", q("MD5", "n"));
    EQ("Nullable(FixedString(16))", (q("MD5", "c", "Nullable(String)", "a|\\N"), et.type_name));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function SHA256",
       q("SHA256", "u", U(1)));
    EQ("907060870", q("CRC32", "s", "hello"));
    EQ("UInt32", et.type_name);
    EQ("0", q("crc32", "s", ""));
    EQ("3236813468", q("crc32", "b", long_text, (size_t)300));
    EQ("3904355907|\\N", q("CRC32", "c", "Nullable(String)", "a|\\N"));
}

/* Numbers hash their little-endian bytes (cityHash64: intHash64 of them),
 * several arguments combine, arrays hash length then elements. */
static void test_values_and_combining(void **state) {
    (void)state;
    EQ("1193743241355087095", q("sipHash64", "ss", "a", "b"));
    EQ("7385293435322750976", q("sipHash64", "u", U(1)));
    EQ("9224715256000962398", q("sipHash64", "k", "UInt64", "1"));
    EQ("2368135510806073586", q("sipHash64", "i", I(-1)));
    EQ("12174397082705264768", q("sipHash64", "f", 1.5));
    EQ("399973217418098485", q("sipHash64", "k", "Float32", "1.5"));
    EQ("676601605635377343", q("sipHash64", "suf", "a", U(1), 2.5));
    EQ("10070520135208400290", q("sipHash64", "k", "Array(UInt8)", "[1,2,3]"));
    EQ("13621472697120943929", q("sipHash64", "k", "Array(String)", "['a','b']"));
    EQ("3132110263112021496", q("sipHash64", "k", "Date", "2020-01-01"));
    EQ("7978862573078044762", q("sipHash64", "k", "DateTime('UTC')", "2020-01-01 00:00:00"));
    EQ("7385293435322750976", q("sipHash64", "k", "Enum8('a' = 1)", "a"));
    EQ("5692919009660197830", q("sipHash64", "k", "Int16", "-2"));
    EQ("7468329322676821011", q("cityHash64", "ss", "a", "b"));
    EQ("10577349846663553072", q("cityHash64", "u", U(1)));
    EQ("8055013221972926055", q("cityHash64", "i", I(-1)));
    EQ("7287324520655339053", q("cityHash64", "f", 1.5));
    EQ("17641193269776743632", q("cityHash64", "k", "Float32", "1.5"));
    EQ("11206906057350383447", q("cityHash64", "suf", "a", U(1), 2.5));
    EQ("17212270524557410892", q("cityHash64", "k", "Array(UInt8)", "[1,2,3]"));
    EQ("2576229629221428150", q("cityHash64", "k", "Array(String)", "['a','b']"));
    EQ("6817702824740635125", q("cityHash64", "k", "Date", "2020-01-01"));
    EQ("10577349846663553072", q("cityHash64", "k", "Enum8('a' = 1)", "a"));
    EQ("5877560787935003687", q("cityHash64", "k", "Int16", "-2"));
    EQ("17926434811106480906", q("cityHash64", "ks", "Array(Int8)", "[-1]", "q"));
    EQ("344816746590365630", q("halfMD5", "ss", "a", "b"));
    EQ("6171409270389319049", q("halfMD5", "u", U(1)));
    EQ("18305627054227103971", q("murmurHash3_64", "ss", "a", "b"));
    EQ("956517343494314387", q("murmurHash3_64", "u", U(1)));
    EQ("914284213", q("murmurHash3_32", "ss", "a", "b"));
    EQ("3216578738", q("murmurHash3_32", "k", "Array(UInt8)", "[1,2]"));
    EQ("131781587", q("murmurHash2_32", "su", "a", U(1)));
    EQ("15788039038935384568", q("murmurHash2_64", "ks", "Array(UInt8)", "[1]", "x"));
    /* Columns, constants and NULLs mix row by row. */
    EQ("1193743241355087095|\\N|1193743241355087095",
       q("sipHash64", "cs", "Nullable(String)", "a|\\N|a", "b"));
    EQ("Nullable(UInt64)", et.type_name);
    EQ("7468329322676821011|7468329322676821011", q("cityHash64", "sc", "a", "String", "b|b"));
    EQ("\\N", q("sipHash64", "sn", "a", NULL));
    /* No arguments: ClickHouse's fixed constant. */
    EQ("16324913028386710556", q("sipHash64", ""));
    EQ("4263699484", q("xxHash32", ""));
}

/* Combiners without a server to compare with: checked against their
 * definition from the single-argument hashes. */
static void test_combiners(void **state) {
    (void)state;
    uint64_t b = strtoull(q("xxHash32", "s", "b"), NULL, 10);
    uint64_t ia = strtoull(q("intHash32", "k", "UInt64", q("xxHash32", "s", "a")), NULL, 10);
    char want[32];
    snprintf(want, sizeof(want), "%llu", (unsigned long long)((ia ^ b) & 0xFFFFFFFFu));
    EQ(want, q("xxHash32", "ss", "a", "b"));
    /* sipHash128 of two arguments hashes their two 16-byte hashes. */
    uint8_t both[32];
    et.render_hex = true;
    const char *ha = q("sipHash128", "s", "a");
    for (int i = 0; i < 16; i++) sscanf(ha + 2 * i, "%2hhx", &both[i]);
    const char *hb = q("sipHash128", "s", "b");
    for (int i = 0; i < 16; i++) sscanf(hb + 2 * i, "%2hhx", &both[16 + i]);
    char expected[64];
    snprintf(expected, sizeof(expected), "%s",
             q("sipHash128", "b", (const char *)both, (size_t)32));
    EQ(expected, q("sipHash128", "ss", "a", "b"));
    et.render_hex = false;
    /* A Map hashes as an array of (key, value) pairs. */
    EQ(q("cityHash64", "k", "Map(String, UInt8)", "{'k':1}"),
       q("cityHash64", "k", "Map(String, UInt8)", "{'k':1}"));
    assert_string_not_equal(q("cityHash64", "k", "Map(String, UInt8)", "{'k':1}"),
                            q("cityHash64", "k", "Map(String, UInt8)", "{'k':2}"));
}

static void test_errors(void **state) {
    (void)state;
    EQ("ERR ENOT_SUPPORTED: function sipHash64 does not hash Array(Nullable(UInt8)) yet "
       "(argument 1)", q("sipHash64", "k", "Array(Nullable(UInt8))", "[1]"));
    EQ("ERR ENOT_SUPPORTED: function cityHash64 does not hash Array(Array(UInt8)) yet "
       "(argument 2)", q("cityHash64", "sk", "a", "Array(Array(UInt8))", "[[1]]"));
    EQ("ERR EILLEGAL_TYPE: Illegal type Float64 of argument 1 of function intHash32",
       q("intHash32", "f", 1.5));
    EQ("ERR ENUMBER_OF_ARGUMENTS: Number of arguments for function intHash64 doesn't match: "
       "passed 2, should be 1", q("intHash64", "uu", U(1), U(2)));
    EQ("ERR EILLEGAL_TYPE: Illegal type Array(UInt8) of argument 1 of function MD5",
       q("MD5", "k", "Array(UInt8)", "[1]"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_string_lengths), cmocka_unit_test(test_string_lengths_wide),
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_digests),        cmocka_unit_test(test_values_and_combining),
        cmocka_unit_test(test_combiners),      cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
