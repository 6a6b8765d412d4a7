package dev.rsql.planner.functions;

import dev.rsql.planner.functions.FunctionDoc.Category;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlLibraryOperators;

import java.util.ArrayList;
import java.util.List;

import static dev.rsql.planner.functions.FunctionDoc.Category.CONDITIONAL;
import static dev.rsql.planner.functions.FunctionDoc.Category.EVENT;
import static dev.rsql.planner.functions.FunctionDoc.Category.STRING;
import static dev.rsql.planner.functions.FunctionDoc.Category.TABLE;
import static dev.rsql.planner.functions.FunctionDoc.Category.TEMPORAL;

/**
 * The registry of the dialect's built-in functions (blink-dialect.md §8.1–8.3 and §8.5): the operators the engine
 * adds to Calcite's standard table, and the documentation of every function a Blink script may call, including the
 * ones Calcite already implements with the same semantics. {@code docs/functions.md} is generated from here.
 */
public final class BuiltinFunctions {

    private static final BuiltinRegistry REGISTRY = build();

    private BuiltinFunctions() {
    }

    /** The operators the engine registers (its own functions and the Calcite library functions it uses). */
    public static List<SqlOperator> operators() {
        return REGISTRY.operators();
    }

    /** Documentation of every built-in, in registry order. */
    public static List<FunctionDoc> docs() {
        return REGISTRY.docs();
    }

    private static BuiltinRegistry build() {
        BuiltinRegistry r = new BuiltinRegistry();
        strings(r);
        temporal(r);
        conditional(r);
        events(r);
        tables(r);
        return r;
    }

    // ---------------------------------------------------------------------------------------------------------------

    private static void strings(BuiltinRegistry r) {
        Class<?> s = StringFunctions.class;
        r.scalar("CONCAT", STRING, s).sig("VARCHAR CONCAT(VARCHAR... values)", "concat")
                .doc("Concatenates the values; NULL if any value is NULL. Other types are cast to VARCHAR.")
                .example("CONCAT('a', 'b', 'c')", "abc").example("CONCAT('a', NULL)", "NULL")
                .example("CONCAT('n', 1)", "n1").add();
        r.scalar("CONCAT_WS", STRING, s).nonStrict().sig("VARCHAR CONCAT_WS(VARCHAR sep, VARCHAR... values)", "concatWs")
                .doc("Concatenates the values with the separator between them, skipping NULL values; NULL if the "
                        + "separator is NULL.")
                .example("CONCAT_WS('-', 'a', NULL, 'c')", "a-c").example("CONCAT_WS(NULL, 'a')", "NULL").add();
        r.scalar("CHAR_LENGTH", STRING, s).sig("INT CHAR_LENGTH(VARCHAR s)", "charLength")
                .doc("Number of characters (Unicode code points: an emoji is one character).")
                .example("CHAR_LENGTH('hello')", "5").example("CHAR_LENGTH('风控🚀')", "3").add();
        r.scalar("CHARACTER_LENGTH", STRING, s).sig("INT CHARACTER_LENGTH(VARCHAR s)", "charLength")
                .doc("Same as CHAR_LENGTH.").example("CHARACTER_LENGTH('北京')", "2").add();
        r.calcite("LOWER / UPPER", STRING).sig("VARCHAR LOWER(VARCHAR s)").sig("VARCHAR UPPER(VARCHAR s)")
                .doc("Lower / upper case.").example("LOWER('AbC')", "abc").example("UPPER('AbC')", "ABC").add();
        r.scalar("INITCAP", STRING, s).sig("VARCHAR INITCAP(VARCHAR s)", "initcap")
                .doc("First letter of each word upper case, the others lower case; words are separated by any "
                        + "character that is not a letter or digit.")
                .blink("Calcite's INITCAP gives the same result for ASCII text but treats other letters as word "
                        + "separators ('éa' -> 'éA'); this one keeps Unicode words together.")
                .example("INITCAP('hello wORLD-x')", "Hello World-X").add();
        r.scalar("INSTR", STRING, s)
                .sig("INT INSTR(VARCHAR s, VARCHAR sub)", "instr")
                .sig("INT INSTR(VARCHAR s, VARCHAR sub, INT start)", "instr")
                .sig("INT INSTR(VARCHAR s, VARCHAR sub, INT start, INT nth)", "instr")
                .doc("1-based position of the nth occurrence (default 1st) of sub in s, searching from position "
                        + "start (default 1); a negative start counts from the end and searches backwards; 0 if not "
                        + "found or start is 0. nth must be positive.")
                .blink("Blink 2.2.0+.")
                .example("INSTR('helloworld', 'lo')", "4").example("INSTR('aXbXc', 'X', 3)", "4")
                .example("INSTR('aXbXc', 'X', 1, 2)", "4").example("INSTR('aXbXc', 'X', -1)", "4")
                .example("INSTR('aXbXc', 'X', -1, 2)", "2").example("INSTR('abc', 'z')", "0").add();
        r.scalar("POSITION", STRING, s).sig("INT POSITION(VARCHAR sub IN VARCHAR s)")
                .hiddenSig("INT POSITION(VARCHAR sub, VARCHAR s)", "locate")
                .doc("1-based position of sub in s, 0 if absent.").example("POSITION('lo' IN 'hello')", "4")
                .example("POSITION('控' IN '🚀风控')", "3").add();
        r.scalar("LOCATE", STRING, s).sig("INT LOCATE(VARCHAR sub, VARCHAR s)", "locate")
                .sig("INT LOCATE(VARCHAR sub, VARCHAR s, INT pos)", "locate")
                .doc("1-based position of sub in s at or after position pos (default 1); 0 if absent.")
                .blink("Flink operator table; presence in Blink not verified.")
                .example("LOCATE('b', 'abcb')", "2").example("LOCATE('b', 'abcb', 3)", "4").add();
        r.scalar("LPAD", STRING, s).sig("VARCHAR LPAD(VARCHAR s, INT len, VARCHAR pad)", "lpad")
                .doc("s left-padded with pad to len characters, or cut to len if longer; NULL if len is negative "
                        + "or padding is needed and pad is empty.")
                .example("LPAD('hi', 5, 'xy')", "xyxhi").example("LPAD('hello', 2, '?')", "he").add();
        r.scalar("RPAD", STRING, s).sig("VARCHAR RPAD(VARCHAR s, INT len, VARCHAR pad)", "rpad")
                .doc("Like LPAD, padding on the right.").example("RPAD('hi', 5, 'xy')", "hixyx").add();
        r.scalar("REPEAT", STRING, s).sig("VARCHAR REPEAT(VARCHAR s, INT n)", "repeat")
                .doc("s repeated n times; empty if n <= 0.").example("REPEAT('ab', 3)", "ababab").add();
        r.scalar("REVERSE", STRING, s).sig("VARCHAR REVERSE(VARCHAR s)", "reverse")
                .doc("The characters of s in reverse order.").example("REVERSE('abc')", "cba").add();
        r.calcite("REPLACE", STRING).sig("VARCHAR REPLACE(VARCHAR s, VARCHAR from, VARCHAR to)")
                .doc("Every occurrence of from replaced by to (literal text, not a regex).")
                .example("REPLACE('a.b.c', '.', '-')", "a-b-c").add();
        r.scalar("SUBSTRING", STRING, s).sig("VARCHAR SUBSTRING(VARCHAR s, INT start)", "substr")
                .sig("VARCHAR SUBSTRING(VARCHAR s, INT start, INT len)", "substr")
                .sig("VARCHAR SUBSTRING(VARCHAR s FROM INT start [FOR INT len])")
                .doc("len characters (default: the rest) from the 1-based position start; start 0 is treated as 1 "
                        + "and a negative start counts from the end; NULL for a negative len.")
                .blink("Blink/Flink semantics for start <= 0 (standard SQL would shift the window instead).")
                .example("SUBSTRING('hello', 2, 3)", "ell").example("SUBSTRING('hello', -3)", "llo")
                .example("SUBSTRING('hello' FROM 0 FOR 2)", "he").example("SUBSTRING('深圳🚀站', 2, 2)", "圳🚀").add();
        r.scalar("SUBSTR", STRING, s).sig("VARCHAR SUBSTR(VARCHAR s, INT start)", "substr")
                .sig("VARCHAR SUBSTR(VARCHAR s, INT start, INT len)", "substr")
                .doc("Same as SUBSTRING.").example("SUBSTR('hello', 2)", "ello").add();
        r.calcite("TRIM", STRING).sig("VARCHAR TRIM([BOTH | LEADING | TRAILING] [chars FROM] VARCHAR s)")
                .doc("Removes spaces (or the given characters) from both ends (or one end) of s.")
                .example("TRIM('  a b  ')", "a b").example("TRIM(LEADING 'x' FROM 'xxaxx')", "axx").add();
        r.scalar("LTRIM", STRING, s).sig("VARCHAR LTRIM(VARCHAR s)", "ltrim")
                .doc("Removes leading spaces.").example("CONCAT('[', LTRIM('  a  '), ']')", "[a  ]").add();
        r.scalar("RTRIM", STRING, s).sig("VARCHAR RTRIM(VARCHAR s)", "rtrim")
                .doc("Removes trailing spaces.").example("CONCAT('[', RTRIM('  a  '), ']')", "[  a]").add();
        r.scalar("OVERLAY", STRING, s).sig("VARCHAR OVERLAY(VARCHAR s PLACING VARCHAR r FROM INT start [FOR INT len])")
                .hiddenSig("VARCHAR OVERLAY(VARCHAR s, VARCHAR r, INT start)", "overlay")
                .hiddenSig("VARCHAR OVERLAY(VARCHAR s, VARCHAR r, INT start, INT len)", "overlay")
                .doc("Replaces len characters (default: the length of r) of s from position start by r.")
                .example("OVERLAY('abcdef' PLACING 'XY' FROM 2)", "aXYdef")
                .example("OVERLAY('北京🚀站' PLACING '上海' FROM 3 FOR 1)", "北京上海站").add();
        r.scalar("LEFT", STRING, s).sig("VARCHAR LEFT(VARCHAR s, INT n)", "left")
                .doc("The first n characters; empty if n <= 0.").example("LEFT('hello', 2)", "he").add();
        r.scalar("RIGHT", STRING, s).sig("VARCHAR RIGHT(VARCHAR s, INT n)", "right")
                .doc("The last n characters; empty if n <= 0.").example("RIGHT('hello', 2)", "lo").add();
        r.scalar("SPLIT_INDEX", STRING, s).sig("VARCHAR SPLIT_INDEX(VARCHAR s, VARCHAR sep, INT index)", "splitIndex")
                .doc("Splits s at every occurrence of the separator (literal text) and returns the piece at index, "
                        + "counting from 0; NULL if index is negative or past the last piece.")
                .blink("index counts from 0.")
                .example("SPLIT_INDEX('a,b,c', ',', 1)", "b").example("SPLIT_INDEX('a,b,c', ',', 3)", "NULL")
                .example("SPLIT_INDEX('a,,c', ',', 1)", "").add();
        r.scalar("KEYVALUE", STRING, s)
                .sig("VARCHAR KEYVALUE(VARCHAR s, VARCHAR split1, VARCHAR split2, VARCHAR key)", "keyValue")
                .doc("Splits s into key/value pairs at split1, each pair at the first split2, and returns the value "
                        + "of the first pair whose key is key; NULL if there is none. A delimiter of several "
                        + "characters splits at any of them.")
                .example("KEYVALUE('k1=v1;k2=v2', ';', '=', 'k2')", "v2")
                .example("KEYVALUE('k1=v1;k2=v2', ';', '=', 'k3')", "NULL").add();
        r.scalar("STR_TO_MAP", STRING, s).sig("MAP<VARCHAR,VARCHAR> STR_TO_MAP(VARCHAR text)", "strToMap")
                .sig("MAP<VARCHAR,VARCHAR> STR_TO_MAP(VARCHAR text, VARCHAR listDelimiter, VARCHAR kvDelimiter)",
                        "strToMap")
                .doc("Splits text into pairs at listDelimiter (default ','), each pair at kvDelimiter (default "
                        + "'='), into a map; the delimiters are Java regular expressions. A pair without kvDelimiter "
                        + "maps its key to NULL; a repeated key keeps the last value.")
                .example("STR_TO_MAP('a=1,b=2')['b']", "2")
                .example("STR_TO_MAP('a:1|b:2', '\\|', ':')['a']", "1")
                .example("CARDINALITY(STR_TO_MAP('a=1,b=2,a=3'))", "2").add();
        r.scalar("JSON_VALUE", STRING, JsonFunctions.class).sig("VARCHAR JSON_VALUE(VARCHAR json, VARCHAR path)", "jsonValue")
                .doc("The value at a JSON path ($ root, .key child, [n] array element, [*] all elements); strings "
                        + "as they are, numbers and booleans as text, arrays and objects serialized as JSON. NULL if "
                        + "the JSON is invalid, the path is invalid, or there is no value.")
                .blink("Flink's SQL/JSON JSON_VALUE returns NULL for arrays and objects (use JSON_QUERY there); "
                        + "the Blink form is used for JSON_VALUE(json, path). Calls with RETURNING / ON EMPTY / "
                        + "ON ERROR clauses keep Calcite's SQL/JSON semantics.")
                .example("JSON_VALUE('{\"a\":{\"b\":1}}', '$.a.b')", "1")
                .example("JSON_VALUE('[10, 20, [30, 40]]', '$[2][*]')", "[30,40]")
                .example("JSON_VALUE('{\"a\":\"x\"}', '$.a')", "x")
                .example("JSON_VALUE('{xx]', '$.a')", "NULL").add();
        r.scalar("PARSE_URL", STRING, s).sig("VARCHAR PARSE_URL(VARCHAR url, VARCHAR part)", "parseUrl")
                .sig("VARCHAR PARSE_URL(VARCHAR url, VARCHAR part, VARCHAR key)", "parseUrl")
                .doc("A part of a URL: HOST, PATH, QUERY, REF, PROTOCOL, FILE, AUTHORITY or USERINFO; with a key, "
                        + "the value of that query parameter (part must be QUERY). NULL for an invalid URL or an "
                        + "absent part.")
                .example("PARSE_URL('http://a.com/p/q?k=v&x=1#r', 'HOST')", "a.com")
                .example("PARSE_URL('http://a.com/p/q?k=v&x=1#r', 'QUERY', 'x')", "1")
                .example("PARSE_URL('http://a.com/p/q?k=v&x=1#r', 'PATH')", "/p/q").add();
        r.scalar("REGEXP", STRING, s).sig("BOOLEAN REGEXP(VARCHAR s, VARCHAR pattern)", "regexp")
                .doc("True if the Java regular expression matches a part of s (find, not a full match); NULL for an "
                        + "invalid pattern. A constant pattern is compiled once per job.")
                .example("REGEXP('k1=v1', 'v[0-9]')", "TRUE").example("REGEXP('abc', '^b')", "FALSE").add();
        r.scalar("REGEXP_EXTRACT", STRING, s)
                .sig("VARCHAR REGEXP_EXTRACT(VARCHAR s, VARCHAR pattern, INT index)", "regexpExtract")
                .sig("VARCHAR REGEXP_EXTRACT(VARCHAR s, VARCHAR pattern)", "regexpExtract")
                .doc("Group index of the first match of the pattern: groups count from 1, 0 is the whole match, "
                        + "default 1. NULL if nothing matches, index is out of range or the pattern is invalid.")
                .blink("Group index from 1; a bad regex gives NULL.")
                .example("REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 2)", "bar")
                .example("REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 1)", "the")
                .example("REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 0)", "foothebar")
                .example("REGEXP_EXTRACT('abc', '(', 1)", "NULL").add();
        r.scalar("REGEXP_REPLACE", STRING, s)
                .sig("VARCHAR REGEXP_REPLACE(VARCHAR s, VARCHAR pattern, VARCHAR replacement)", "regexpReplace")
                .doc("Every match of the Java regular expression replaced ($1 refers to a group); NULL for an "
                        + "invalid pattern.")
                .example("REGEXP_REPLACE('2024-01-05', '(\\d+)-(\\d+)-(\\d+)', '$3/$2/$1')", "05/01/2024").add();
        r.scalar("MD5", STRING, s).sig("VARCHAR MD5(VARCHAR s)", "md5")
                .doc("MD5 of the UTF-8 bytes, 32 lower-case hex digits.")
                .example("MD5('abc')", "900150983cd24fb0d6963f7d28e17f72").add();
        r.scalar("SHA1", STRING, s).sig("VARCHAR SHA1(VARCHAR s)", "sha1").doc("SHA-1, lower-case hex.")
                .example("SHA1('abc')", "a9993e364706816aba3e25717850c26c9cd0d89d").add();
        r.scalar("SHA224", STRING, s).sig("VARCHAR SHA224(VARCHAR s)", "sha224").doc("SHA-224, lower-case hex.")
                .example("SHA224('abc')", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7").add();
        r.scalar("SHA256", STRING, s).sig("VARCHAR SHA256(VARCHAR s)", "sha256").doc("SHA-256, lower-case hex.")
                .example("SHA256('abc')", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad").add();
        r.scalar("SHA384", STRING, s).sig("VARCHAR SHA384(VARCHAR s)", "sha384").doc("SHA-384, lower-case hex.")
                .example("LEFT(SHA384('abc'), 16)", "cb00753f45a35e8b").add();
        r.scalar("SHA512", STRING, s).sig("VARCHAR SHA512(VARCHAR s)", "sha512").doc("SHA-512, lower-case hex.")
                .example("LEFT(SHA512('abc'), 16)", "ddaf35a193617aba").add();
        r.scalar("SHA2", STRING, s).sig("VARCHAR SHA2(VARCHAR s, INT bits)", "sha2")
                .doc("SHA-2 with 224, 256, 384 or 512 bits (0 means 256); NULL for other lengths.")
                .example("SHA2('abc', 224)", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
                .example("SHA2('abc', 100)", "NULL").add();
        r.scalar("HASH_CODE", STRING, s).sig("INT HASH_CODE(VARCHAR s)", "hashCode")
                .doc("Java's String.hashCode().").example("HASH_CODE('abc')", "96354").add();
        r.scalar("MURMUR_HASH", STRING, s).sig("INT MURMUR_HASH(VARCHAR s)", "murmurHash")
                .doc("32-bit MurmurHash3 (seed 0) of the UTF-8 bytes; other types are cast to VARCHAR first.")
                .blink("VVR 3.0+.").example("MURMUR_HASH('hello')", "613153351").add();
        r.scalar("MURMUR_HASH_64", STRING, s).sig("BIGINT MURMUR_HASH_64(VARCHAR s)", "murmurHash64")
                .doc("The first 64 bits of the 128-bit x64 MurmurHash3 (seed 0) of the UTF-8 bytes.")
                .blink("VVR 3.0+.").example("MURMUR_HASH_64('')", "0").add();
        r.scalar("TO_BASE64", STRING, s).sig("VARCHAR TO_BASE64(VARCHAR s)", "toBase64")
                .sig("VARCHAR TO_BASE64(VARBINARY b)", "toBase64")
                .doc("Base64 of the UTF-8 bytes of s (or of b).").example("TO_BASE64('hello')", "aGVsbG8=").add();
        r.scalar("FROM_BASE64", STRING, s).sig("VARCHAR FROM_BASE64(VARCHAR s)", "fromBase64")
                .doc("The Base64 text decoded, as UTF-8 text; NULL if s is not Base64.")
                .example("FROM_BASE64('aGVsbG8=')", "hello").add();
        r.calcite("ASCII", STRING).sig("INT ASCII(VARCHAR s)")
                .doc("Code of the first character; 0 for an empty string.").example("ASCII('abc')", "97").add();
        r.scalar("CHR", STRING, s).sig("VARCHAR CHR(BIGINT n)", "chr")
                .doc("The character with code n modulo 256; NULL for a negative n.").example("CHR(97)", "a").add();
        r.scalar("UUID", STRING, s).nonDeterministic().returns(ReturnSpec.notNull(ParamType.VARCHAR))
                .sig("VARCHAR UUID()", "uuid").hiddenSig("VARCHAR UUID(INT callSite)", "uuid")
                .doc("A random UUID (version 4), e.g. 'a0f3d8e2-...'; a new one per call.")
                .exampleUnchecked("CHAR_LENGTH(UUID())", "36").add();
        r.scalar("URL_ENCODE", STRING, s).sig("VARCHAR URL_ENCODE(VARCHAR s)", "urlEncode")
                .doc("application/x-www-form-urlencoded encoding (UTF-8).").blink("VVR 3.0+.")
                .example("URL_ENCODE('a b&c')", "a+b%26c").add();
        r.scalar("URL_DECODE", STRING, s).sig("VARCHAR URL_DECODE(VARCHAR s)", "urlDecode")
                .doc("Decodes URL_ENCODE's form; NULL for an invalid encoding.").blink("VVR 3.0+.")
                .example("URL_DECODE('a+b%26c')", "a b&c").example("URL_DECODE('%zz')", "NULL").add();
        r.scalar("HEX", STRING, s).sig("VARCHAR HEX(BIGINT n)", "hex").sig("VARCHAR HEX(VARCHAR s)", "hex")
                .doc("Upper-case hexadecimal of a number (two's complement if negative) or of the UTF-8 bytes of a "
                        + "string.")
                .blink("Flink operator table; presence in Blink not verified.")
                .example("HEX(255)", "FF").example("HEX('ab')", "6162").add();
        r.scalar("ENCODE", STRING, s).sig("VARBINARY ENCODE(VARCHAR s, VARCHAR charset)", "encode")
                .doc("The bytes of s in the character set.")
                .blink("Flink operator table; presence in Blink not verified.")
                .example("HEX(DECODE(ENCODE('hé', 'UTF-8'), 'UTF-8'))", "68C3A9").add();
        r.scalar("DECODE", STRING, s).sig("VARCHAR DECODE(VARBINARY b, VARCHAR charset)", "decode")
                .doc("Bytes as text in the character set.")
                .blink("Flink operator table; presence in Blink not verified.")
                .example("DECODE(ENCODE('hé', 'ISO-8859-1'), 'ISO-8859-1')", "hé").add();
    }

    // ---------------------------------------------------------------------------------------------------------------

    private static void temporal(BuiltinRegistry r) {
        Class<?> t = DateTimeFunctions.class;
        r.calcite("CURRENT_TIMESTAMP / LOCALTIMESTAMP / CURRENT_DATE / CURRENT_TIME / LOCALTIME", TEMPORAL).sig("TIMESTAMP CURRENT_TIMESTAMP").sig("TIMESTAMP LOCALTIMESTAMP")
                .sig("DATE CURRENT_DATE").sig("TIME CURRENT_TIME").sig("TIME LOCALTIME")
                .doc("The current time, evaluated per record. CURRENT_TIMESTAMP is the UTC wall-clock time; "
                        + "LOCALTIMESTAMP, CURRENT_DATE and LOCALTIME are in the job's time zone.")
                .exampleUnchecked("CHAR_LENGTH(CAST(CURRENT_DATE AS VARCHAR))", "10").add();
        r.calcite("PROCTIME", TEMPORAL).sig("TIMESTAMP PROCTIME()")
                .doc("Processing time of the record (UTC wall clock, milliseconds); for computed columns.")
                .exampleUnchecked("PROCTIME() IS NOT NULL", "TRUE").add();
        r.scalar("NOW", TEMPORAL, t).dynamic().returns(ReturnSpec.notNull(ParamType.BIGINT))
                .sig("BIGINT NOW()", "now").sig("BIGINT NOW(INT offsetSeconds)", "now")
                .doc("The current time in epoch seconds, plus offsetSeconds.")
                .blink("Seconds (Flink's NOW() is a TIMESTAMP_LTZ(3)).")
                .exampleUnchecked("NOW() > 1500000000", "TRUE").add();
        r.scalar("UNIX_TIMESTAMP", TEMPORAL, t).dynamic()
                .sig("BIGINT UNIX_TIMESTAMP()", "unixTimestamp")
                .sig("BIGINT UNIX_TIMESTAMP(VARCHAR date)", "unixTimestamp")
                .sig("BIGINT UNIX_TIMESTAMP(VARCHAR date, VARCHAR format)", "unixTimestamp")
                .sig("BIGINT UNIX_TIMESTAMP(TIMESTAMP ts)", "unixTimestamp")
                .doc("Epoch seconds: now, of a date string (default format 'yyyy-MM-dd HH:mm:ss', a "
                        + "SimpleDateFormat pattern) in the job's time zone, or of a TIMESTAMP. NULL if the string "
                        + "does not match the format.")
                .example("UNIX_TIMESTAMP('1970-01-02 00:00:00')", "86400")
                .example("UNIX_TIMESTAMP('1970/01/02', 'yyyy/MM/dd')", "86400")
                .example("UNIX_TIMESTAMP(TIMESTAMP '1970-01-01 00:01:00')", "60")
                .example("UNIX_TIMESTAMP('garbage')", "NULL").add();
        r.scalar("FROM_UNIXTIME", TEMPORAL, t).sig("VARCHAR FROM_UNIXTIME(BIGINT seconds)", "fromUnixtime")
                .sig("VARCHAR FROM_UNIXTIME(BIGINT seconds, VARCHAR format)", "fromUnixtime")
                .doc("Epoch seconds as text in the job's time zone, default format 'yyyy-MM-dd HH:mm:ss'.")
                .blink("Seconds.")
                .example("FROM_UNIXTIME(86400)", "1970-01-02 00:00:00")
                .example("FROM_UNIXTIME(1513135677, 'yyyyMMdd')", "20171213").add();
        r.scalar("TO_TIMESTAMP", TEMPORAL, t).sig("TIMESTAMP TO_TIMESTAMP(BIGINT epochMillis)", "toTimestamp")
                .sig("TIMESTAMP TO_TIMESTAMP(VARCHAR s)", "toTimestamp")
                .sig("TIMESTAMP TO_TIMESTAMP(VARCHAR s, VARCHAR format)", "toTimestamp")
                .doc("Epoch milliseconds as a TIMESTAMP in the job's time zone; or a string 'yyyy-MM-dd "
                        + "HH:mm:ss[.fraction]' (or 'yyyy-MM-dd'), or one in the given format, as a TIMESTAMP. NULL "
                        + "if the string does not match.")
                .blink("The BIGINT form takes milliseconds (Flink has only string forms; use TO_TIMESTAMP_LTZ there).")
                .example("TO_TIMESTAMP(1513135677000)", "2017-12-13 03:27:57.000")
                .example("TO_TIMESTAMP('2017-09-15 00:00:00')", "2017-09-15 00:00:00.000")
                .example("TO_TIMESTAMP('15/09/2017', 'dd/MM/yyyy')", "2017-09-15 00:00:00.000").add();
        r.scalar("TO_DATE", TEMPORAL, t).sig("DATE TO_DATE(INT days)", "toDate")
                .sig("DATE TO_DATE(VARCHAR s)", "toDate").sig("DATE TO_DATE(VARCHAR s, VARCHAR format)", "toDate")
                .doc("Days since 1970-01-01, a 'yyyy-MM-dd' string, or a string in the given format, as a DATE.")
                .example("TO_DATE(100)", "1970-04-11").example("TO_DATE('2017-09-15')", "2017-09-15")
                .example("TO_DATE('20170915', 'yyyyMMdd')", "2017-09-15").add();
        r.scalar("DATE_FORMAT", TEMPORAL, t).sig("VARCHAR DATE_FORMAT(TIMESTAMP ts, VARCHAR format)", "dateFormat")
                .sig("VARCHAR DATE_FORMAT(VARCHAR s, VARCHAR format)", "dateFormat")
                .sig("VARCHAR DATE_FORMAT(VARCHAR s, VARCHAR fromFormat, VARCHAR toFormat)", "dateFormat")
                .doc("Formats a TIMESTAMP, or a date string read with fromFormat (default 'yyyy-MM-dd HH:mm:ss'), "
                        + "with a SimpleDateFormat pattern. NULL if the string does not match; an invalid pattern is "
                        + "an error. A constant pattern is compiled once per job.")
                .blink("The 3-argument form is Blink only.")
                .example("DATE_FORMAT(TIMESTAMP '2017-09-15 23:00:00', 'yyyy/MM/dd HH')", "2017/09/15 23")
                .example("DATE_FORMAT('2017-09-15 23:00:00', 'yyMMdd')", "170915")
                .example("DATE_FORMAT('20170915', 'yyyyMMdd', 'yyyy-MM-dd')", "2017-09-15").add();
        r.scalar("DATE_FORMAT_TZ", TEMPORAL, t).sig("VARCHAR DATE_FORMAT_TZ(TIMESTAMP ts, VARCHAR tz)", "dateFormatTz")
                .sig("VARCHAR DATE_FORMAT_TZ(TIMESTAMP ts, VARCHAR format, VARCHAR tz)", "dateFormatTz")
                .doc("Formats the TIMESTAMP (a time in the job's zone) as the time in zone tz, default format "
                        + "'yyyy-MM-dd HH:mm:ss'. An unknown zone is an error.")
                .example("DATE_FORMAT_TZ(TIMESTAMP '2017-09-15 00:00:00', 'Asia/Shanghai')", "2017-09-15 08:00:00")
                .add();
        r.scalar("TO_TIMESTAMP_TZ", TEMPORAL, t).sig("TIMESTAMP TO_TIMESTAMP_TZ(VARCHAR s, VARCHAR tz)", "toTimestampTz")
                .sig("TIMESTAMP TO_TIMESTAMP_TZ(VARCHAR s, VARCHAR format, VARCHAR tz)", "toTimestampTz")
                .doc("Reads s as a time in zone tz and returns it as a TIMESTAMP in the job's zone.")
                .example("TO_TIMESTAMP_TZ('2017-09-15 08:00:00', 'Asia/Shanghai')", "2017-09-15 00:00:00.000").add();
        r.scalar("CONVERT_TZ", TEMPORAL, t).sig("VARCHAR CONVERT_TZ(VARCHAR s, VARCHAR fromTz, VARCHAR toTz)", "convertTz")
                .doc("A 'yyyy-MM-dd HH:mm:ss' time in fromTz as the time in toTz.")
                .blink("Flink operator table; presence in Blink not verified.")
                .example("CONVERT_TZ('1970-01-01 00:00:00', 'UTC', 'America/Los_Angeles')", "1969-12-31 16:00:00")
                .add();
        r.scalar("DATE_ADD", TEMPORAL, t).sig("VARCHAR DATE_ADD(VARCHAR start, INT days)", "dateAdd")
                .sig("VARCHAR DATE_ADD(TIMESTAMP start, INT days)", "dateAdd")
                .doc("The date of start plus days, as 'yyyy-MM-dd'; a string start must begin with 'yyyy-MM-dd'. "
                        + "NULL if it does not.")
                .blink("Returns a string.")
                .example("DATE_ADD('2017-09-15 01:00:00', 30)", "2017-10-15")
                .example("DATE_ADD(TIMESTAMP '2017-09-15 23:00:00', 1)", "2017-09-16").add();
        r.scalar("DATE_SUB", TEMPORAL, t).sig("VARCHAR DATE_SUB(VARCHAR start, INT days)", "dateSub")
                .sig("VARCHAR DATE_SUB(TIMESTAMP start, INT days)", "dateSub")
                .doc("The date of start minus days, as 'yyyy-MM-dd'.").blink("Returns a string.")
                .example("DATE_SUB('2017-10-15', 30)", "2017-09-15").add();
        r.scalar("DATEDIFF", TEMPORAL, t).sig("INT DATEDIFF(VARCHAR end, VARCHAR start)", "datediff")
                .sig("INT DATEDIFF(TIMESTAMP end, TIMESTAMP start)", "datediff")
                .sig("INT DATEDIFF(VARCHAR end, TIMESTAMP start)", "datediff")
                .sig("INT DATEDIFF(TIMESTAMP end, VARCHAR start)", "datediff")
                .doc("Days from the date of start to the date of end (times of day are ignored).")
                .example("DATEDIFF('2017-10-15 00:00:00', '2017-09-15 23:00:00')", "30")
                .example("DATEDIFF(TIMESTAMP '2017-09-16 00:00:00', TIMESTAMP '2017-09-15 23:59:59')", "1").add();
        r.calcite("TIMESTAMPADD / TIMESTAMPDIFF", TEMPORAL).sig("TIMESTAMP TIMESTAMPADD(unit, INT n, TIMESTAMP ts)")
                .sig("INT TIMESTAMPDIFF(unit, TIMESTAMP t1, TIMESTAMP t2)")
                .doc("Adds n units (SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR) to a TIMESTAMP or "
                        + "DATE; TIMESTAMPDIFF counts whole units from t1 to t2.")
                .example("TIMESTAMPADD(DAY, 1, TIMESTAMP '2017-09-15 00:00:00')", "2017-09-16 00:00:00")
                .example("TIMESTAMPDIFF(HOUR, TIMESTAMP '2017-09-15 00:00:00', TIMESTAMP '2017-09-15 05:30:00')", "5")
                .add();
        r.calcite("EXTRACT / YEAR / QUARTER / MONTH / WEEK / DAYOFMONTH / DAYOFYEAR / DAYOFWEEK / HOUR / MINUTE / SECOND", TEMPORAL).sig("BIGINT EXTRACT(unit FROM TIMESTAMP t)")
                .sig("BIGINT YEAR(t)").sig("BIGINT QUARTER(t)").sig("BIGINT MONTH(t)").sig("BIGINT WEEK(t)")
                .sig("BIGINT DAYOFMONTH(t)").sig("BIGINT DAYOFYEAR(t)").sig("BIGINT DAYOFWEEK(t)")
                .sig("BIGINT HOUR(t)").sig("BIGINT MINUTE(t)").sig("BIGINT SECOND(t)")
                .doc("A field of a DATE or TIMESTAMP; DAYOFWEEK is 1 (Sunday) to 7, WEEK the ISO week.")
                .example("EXTRACT(MONTH FROM TIMESTAMP '2017-09-15 10:20:30')", "9")
                .example("HOUR(TIMESTAMP '2017-09-15 10:20:30')", "10")
                .example("DAYOFWEEK(DATE '2017-09-15')", "6").add();
        r.calcite("FLOOR / CEIL (to a time unit)", TEMPORAL).sig("TIMESTAMP FLOOR(TIMESTAMP t TO unit)").sig("TIMESTAMP CEIL(TIMESTAMP t TO unit)")
                .doc("Rounds a time down / up to a unit.")
                .example("FLOOR(TIMESTAMP '2017-09-15 10:20:30' TO HOUR)", "2017-09-15 10:00:00").add();
    }

    // ---------------------------------------------------------------------------------------------------------------

    private static void conditional(BuiltinRegistry r) {
        Class<?> n = NumericFunctions.class;
        Class<?> s = StringFunctions.class;
        r.calcite("IF", CONDITIONAL).sig("T IF(BOOLEAN condition, T ifTrue, T ifFalse)")
                .doc("ifTrue when the condition is TRUE, else ifFalse (also when it is NULL). Evaluated like CASE: "
                        + "only the chosen branch runs.")
                .example("IF(1 < 2, 'yes', 'no')", "yes").example("IF(CAST(NULL AS BOOLEAN), 1, 2)", "2").add();
        r.calcite("CASE / COALESCE / NULLIF", CONDITIONAL).sig("CASE WHEN c THEN v [WHEN ...] [ELSE e] END")
                .sig("T COALESCE(T v1, T v2, ...)").sig("T NULLIF(T a, T b)")
                .doc("Standard conditional expressions.").example("COALESCE(NULL, 'b', 'c')", "b")
                .example("NULLIF(1, 1)", "NULL").add();
        r.calcite("Comparison and logical operators", CONDITIONAL).sig("=, <>, <, <=, >, >=").sig("IS [NOT] NULL")
                .sig("IS [NOT] DISTINCT FROM").sig("[NOT] BETWEEN a AND b").sig("[NOT] LIKE pattern [ESCAPE c]")
                .sig("[NOT] IN (...)").sig("AND, OR, NOT").sig("IS [NOT] TRUE | FALSE | UNKNOWN")
                .doc("Standard comparison and logical operators with SQL three-valued logic. LIKE with a constant "
                        + "pattern is compiled once per job.")
                .example("'abc' LIKE 'a%'", "TRUE").example("2 BETWEEN 1 AND 3", "TRUE").add();
        r.scalar("IS_ALPHA", CONDITIONAL, s).nonStrict().returns(ReturnSpec.notNull(ParamType.BOOLEAN))
                .sig("BOOLEAN IS_ALPHA(VARCHAR s)", "isAlpha")
                .doc("TRUE if s is not empty and all its characters are letters; FALSE otherwise, also for NULL.")
                .example("IS_ALPHA('abc')", "TRUE").example("IS_ALPHA('ab1')", "FALSE")
                .example("IS_ALPHA(NULL)", "FALSE").add();
        r.scalar("IS_DIGIT", CONDITIONAL, s).nonStrict().returns(ReturnSpec.notNull(ParamType.BOOLEAN))
                .sig("BOOLEAN IS_DIGIT(VARCHAR s)", "isDigit")
                .doc("TRUE if s is not empty and all its characters are the digits 0-9; FALSE otherwise, also for "
                        + "NULL.")
                .example("IS_DIGIT('123')", "TRUE").example("IS_DIGIT('1.5')", "FALSE").example("IS_DIGIT('')", "FALSE")
                .add();
        r.scalar("IS_DECIMAL", CONDITIONAL, s).nonStrict().returns(ReturnSpec.notNull(ParamType.BOOLEAN))
                .sig("BOOLEAN IS_DECIMAL(VARCHAR s)", "isDecimal")
                .doc("TRUE if s is a decimal number: an optional sign, digits and at most one decimal point (no "
                        + "exponent); FALSE otherwise, also for NULL.")
                .example("IS_DECIMAL('-1.5')", "TRUE").example("IS_DECIMAL('12')", "TRUE")
                .example("IS_DECIMAL('1.2.3')", "FALSE").add();
        r.calcite("Arithmetic operators", CONDITIONAL).sig("+, -, *, /, %")
                .doc("Arithmetic; INT / INT is an integer division (as in Blink).").example("8 / 3", "2").add();
        r.calcite("Numeric functions (ABS, ACOS, ..., TRUNCATE)", CONDITIONAL).sig("ABS(x)").sig("DOUBLE ACOS(x)").sig("DOUBLE ASIN(x)").sig("DOUBLE ATAN(x)")
                .sig("DOUBLE ATAN2(y, x)").sig("DOUBLE COS(x)").sig("DOUBLE COT(x)").sig("DOUBLE SIN(x)")
                .sig("DOUBLE TAN(x)").sig("DOUBLE DEGREES(x)").sig("DOUBLE RADIANS(x)").sig("DOUBLE EXP(x)")
                .sig("DOUBLE LN(x)").sig("DOUBLE LOG10(x)").sig("DOUBLE POWER(a, b)").sig("DOUBLE SQRT(x)")
                .sig("MOD(a, b)").sig("SIGN(x)").sig("CEIL(x)").sig("FLOOR(x)").sig("ROUND(x [, n])")
                .sig("TRUNCATE(x [, n])").sig("DOUBLE RAND([seed])").sig("INT RAND_INTEGER([seed,] bound)")
                .sig("DOUBLE PI")
                .doc("Standard numeric functions, as in Blink. ROUND rounds half up; LOG10, LN, EXP, POWER and SQRT "
                        + "return DOUBLE; RAND and RAND_INTEGER are new per call.")
                .example("ABS(-2)", "2").example("MOD(7, 3)", "1").example("ROUND(2.345, 2)", "2.35")
                .example("POWER(2, 10)", "1024.0").example("CEIL(1.2)", "2").add();
        r.scalar("LOG", CONDITIONAL, n).sig("DOUBLE LOG(DOUBLE x)", "log").sig("DOUBLE LOG(DOUBLE base, DOUBLE x)", "log")
                .doc("Natural logarithm of x, or logarithm of x to the base; NULL for non-positive arguments or "
                        + "base 1.")
                .example("LOG(2, 8)", "3.0").example("LOG(E())", "1.0").add();
        r.scalar("LOG2", CONDITIONAL, n).sig("DOUBLE LOG2(DOUBLE x)", "log2")
                .doc("Logarithm to base 2.").example("LOG2(8)", "3.0").add();
        r.scalar("E", CONDITIONAL, n).returns(ReturnSpec.notNull(ParamType.DOUBLE)).sig("DOUBLE E()", "e")
                .doc("Euler's number.").example("E()", "2.718281828459045").add();
        r.scalar("PI", CONDITIONAL, n).returns(ReturnSpec.notNull(ParamType.DOUBLE)).sig("DOUBLE PI()", "pi")
                .doc("π (also written PI without parentheses).").example("PI()", "3.141592653589793").add();
        r.scalar("SINH", CONDITIONAL, n).sig("DOUBLE SINH(DOUBLE x)", "sinh").doc("Hyperbolic sine.")
                .blink("Flink operator table; presence in Blink not verified.").example("ROUND(SINH(1), 4)", "1.1752").add();
        r.scalar("COSH", CONDITIONAL, n).sig("DOUBLE COSH(DOUBLE x)", "cosh").doc("Hyperbolic cosine.")
                .blink("Flink operator table; presence in Blink not verified.").example("COSH(0)", "1.0").add();
        r.scalar("TANH", CONDITIONAL, n).sig("DOUBLE TANH(DOUBLE x)", "tanh").doc("Hyperbolic tangent.")
                .blink("Flink operator table; presence in Blink not verified.").example("ROUND(TANH(1), 4)", "0.7616").add();
        r.scalar("ISNAN", CONDITIONAL, n).sig("BOOLEAN ISNAN(DOUBLE x)", "isnan").doc("TRUE if x is NaN.")
                .example("ISNAN(CAST('NaN' AS DOUBLE))", "TRUE").example("ISNAN(1.0)", "FALSE").add();
        r.scalar("BIN", CONDITIONAL, n).sig("VARCHAR BIN(BIGINT n)", "bin")
                .doc("Binary digits of n (two's complement for a negative n).")
                .example("BIN(12)", "1100").example("BIN(-1)", "1111111111111111111111111111111111111111111111111111111111111111")
                .add();
        r.scalar("CONV", CONDITIONAL, n).sig("VARCHAR CONV(BIGINT n, INT fromBase, INT toBase)", "conv")
                .sig("VARCHAR CONV(VARCHAR n, INT fromBase, INT toBase)", "conv")
                .doc("Converts a number between bases 2 to 36 (digits are read up to the first invalid one; a "
                        + "negative toBase gives a signed result, otherwise a negative number converts as its 64-bit "
                        + "two's complement). NULL for a base out of range.")
                .example("CONV('ff', 16, 10)", "255").example("CONV(12, 10, 2)", "1100")
                .example("CONV('-10', 16, -10)", "-16").example("CONV('-1', 10, 16)", "FFFFFFFFFFFFFFFF")
                .example("CONV('1', 1, 10)", "NULL").add();
        r.scalar("BITAND", CONDITIONAL, n).sig("INT BITAND(INT a, INT b)", "bitand")
                .sig("BIGINT BITAND(BIGINT a, BIGINT b)", "bitand")
                .doc("Bitwise AND; BIGINT if an argument is BIGINT.").example("BITAND(12, 10)", "8").add();
        r.scalar("BITOR", CONDITIONAL, n).sig("INT BITOR(INT a, INT b)", "bitor")
                .sig("BIGINT BITOR(BIGINT a, BIGINT b)", "bitor")
                .doc("Bitwise OR.").example("BITOR(12, 10)", "14").add();
        r.scalar("BITXOR", CONDITIONAL, n).sig("INT BITXOR(INT a, INT b)", "bitxor")
                .sig("BIGINT BITXOR(BIGINT a, BIGINT b)", "bitxor")
                .doc("Bitwise exclusive OR.").example("BITXOR(12, 10)", "6").add();
        r.scalar("BITNOT", CONDITIONAL, n).sig("INT BITNOT(INT a)", "bitnot").sig("BIGINT BITNOT(BIGINT a)", "bitnot")
                .doc("Bitwise NOT.").example("BITNOT(0)", "-1").add();
        r.calcite("GREATEST", CONDITIONAL).operator(SqlLibraryOperators.GREATEST)
                .sig("T GREATEST(T v1, T v2, ...)").doc("The largest value; NULL if any value is NULL.")
                .blink("Flink operator table; presence in Blink not verified.")
                .example("GREATEST(1, 5, 3)", "5").example("GREATEST(1, NULL)", "NULL").add();
        r.calcite("LEAST", CONDITIONAL).operator(SqlLibraryOperators.LEAST)
                .sig("T LEAST(T v1, T v2, ...)").doc("The smallest value; NULL if any value is NULL.")
                .blink("Flink operator table; presence in Blink not verified.")
                .example("LEAST(4, 2, 3)", "2").add();
        r.scalar("PRINT", CONDITIONAL, s).nonStrict().nonDeterministic().returns(ReturnSpec.leastRestrictive(1))
                .sig("T PRINT(VARCHAR prefix, ANY value)", "print")
                .doc("Writes 'prefix value' to the engine's standard output and returns value unchanged (for "
                        + "debugging a job).")
                .blink("Flink operator table; presence in Blink not verified.")
                .example("PRINT('n =', 42) + 1", "43").add();
        r.calcite("CARDINALITY", CONDITIONAL).sig("INT CARDINALITY(MAP | ARRAY v)")
                .doc("Number of entries of a map or array.")
                .example("CARDINALITY(STR_TO_MAP('a=1,b=2'))", "2").add();
        r.calcite("CAST / TRY_CAST", CONDITIONAL).operator(SqlLibraryOperators.TRY_CAST).sig("CAST(v AS type)").sig("TRY_CAST(v AS type)")
                .doc("Type conversion; TRY_CAST gives NULL instead of an error.")
                .example("CAST('12' AS INT) + 1", "13").example("TRY_CAST('x' AS INT)", "NULL").add();
    }

    // ---------------------------------------------------------------------------------------------------------------

    private static void events(BuiltinRegistry r) {
        Class<?> e = EventFunctions.class;
        r.scalar("EVENT_MATCHES", EVENT, e).sig("BOOLEAN EVENT_MATCHES(VARCHAR event, VARCHAR pattern)", "eventMatches")
                .doc("True if the event (JSON text) matches the event pattern, a string literal in EventBridge's "
                        + "pattern language: exact values, prefix, suffix, equals-ignore-case, wildcard, anything-but, "
                        + "numeric, exists, cidr, exactly and $or, as AWS event-ruler reads them (docs/events.md). An "
                        + "event that is not JSON matches nothing. A malformed pattern fails `rsql check` with its "
                        + "position. The patterns of all rules on one column are matched together, by one index.")
                .example("EVENT_MATCHES('{\"source\":\"shop\",\"amount\":150}', "
                        + "'{\"source\":[\"shop\"],\"amount\":[{\"numeric\":[\">=\",100]}]}')", "TRUE")
                .example("EVENT_MATCHES('{\"ip\":\"10.2.3.4\",\"tags\":[\"a\",\"风控\"]}', "
                        + "'{\"ip\":[{\"cidr\":\"10.0.0.0/8\"}],\"tags\":[\"风控\"]}')", "TRUE")
                .example("EVENT_MATCHES('{\"n\":5.0}', '{\"n\":[\"5\"]}')", "FALSE")
                .example("EVENT_MATCHES('not json', '{}')", "FALSE").add();
        r.scalar("EVENT_TEMPLATE", EVENT, e)
                .sig("VARCHAR EVENT_TEMPLATE(VARCHAR event, VARCHAR variables, VARCHAR template)", "eventTemplate")
                .doc("EventBridge's template transform: each ${name} in the template replaced by the value of the "
                        + "variable of that name. The variables are a string literal, a JSON object of names to "
                        + "definite JSON paths into the event ($.data.user, $.items[0]['id']) or constant strings. "
                        + "Strings go in as they are, other values as JSON; a path that finds nothing leaves ${name} "
                        + "in place. NULL if the event is not JSON. The other transforms are the event itself, "
                        + "JSON_VALUE(event, path) and a literal.")
                .example("EVENT_TEMPLATE('{\"data\":{\"user\":\"张三\",\"n\":2}}', "
                        + "'{\"u\":\"$.data.user\",\"n\":\"$.data.n\",\"tag\":\"fixed\"}', '${u} x${n} (${tag}) ${none}')",
                        "张三 x2 (fixed) ${none}").add();
    }

    private static void tables(BuiltinRegistry r) {
        Class<?> t = BuiltinTableFunctions.class;
        r.table("STRING_SPLIT", TABLE, t).rowType(BuiltinRegistry.columns(ParamType.VARCHAR))
                .sig("TABLE(VARCHAR v) STRING_SPLIT(VARCHAR s, VARCHAR sep)", "stringSplit")
                .doc("One row per piece of s split at the literal separator; consecutive separators give empty "
                        + "strings; a separator that does not occur (or is empty) gives s itself; NULL s gives no rows.")
                .example("STRING_SPLIT('a-b--c', '-') AS T(v)", "a\nb\n\nc").add();
        r.table("GENERATE_SERIES", TABLE, t)
                .rowType((f, args, b) -> BuiltinRegistry.columns(f, List.of(
                        args.stream().anyMatch(a -> a.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.BIGINT)
                                ? ParamType.BIGINT : ParamType.INT)))
                .sig("TABLE(INT v) GENERATE_SERIES(INT from, INT to)", "generateSeries")
                .sig("TABLE(BIGINT v) GENERATE_SERIES(BIGINT from, BIGINT to)", "generateSeries")
                .doc("Rows from, from + 1, ..., to - 1: the upper bound is excluded; no rows if to <= from or an "
                        + "argument is NULL.")
                .blink("The upper bound is excluded.")
                .example("GENERATE_SERIES(1, 4) AS T(v)", "1\n2\n3").add();
        r.table("JSON_TUPLE", TABLE, t).rowType(BuiltinRegistry.columns(ParamType.VARCHAR))
                .sig("TABLE(VARCHAR v) JSON_TUPLE(VARCHAR json, VARCHAR... paths)", "jsonTuple")
                .doc("One row per path with the value at that path, as JSON_VALUE returns it; paths are written "
                        + "without the leading $ ('a.b' means $.a.b). Rows of NULL for invalid or NULL JSON.")
                .example("JSON_TUPLE('{\"a\":1,\"b\":{\"c\":\"x\"}}', 'a', 'b.c', 'z') AS T(v)", "1\nx\nNULL").add();
        r.table("MULTI_KEYVALUE", TABLE, t)
                .rowType((f, args, b) -> {
                    List<ParamType> cols = new ArrayList<>();
                    for (int i = 3; i < args.size(); i++) {
                        cols.add(ParamType.VARCHAR);
                    }
                    return BuiltinRegistry.columns(f, cols);
                })
                .sig("TABLE(VARCHAR v1, ..., VARCHAR vN) MULTI_KEYVALUE(VARCHAR s, VARCHAR split1, VARCHAR split2, "
                        + "VARCHAR... keys)", "multiKeyValue")
                .doc("One row with one column per key: the key's value as KEYVALUE finds it. A NULL delimiter is a "
                        + "space; a delimiter of several characters splits at any of them. All NULL for a NULL s.")
                .example("MULTI_KEYVALUE('k1=v1;k2=v2', ';', '=', 'k2', 'k3', 'k1') AS T(a, b, c)", "v2, NULL, v1").add();
    }
}
