package dev.rsql.planner.functions;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.testing.TestJob;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Table-driven tests of the built-ins, run as SQL through the planner, the generated code and a job: normal values,
 * NULLs (literal and from a column, so both the constant and the per-row paths run), and the edge cases of
 * blink-dialect.md §8. Fixture row: s='a,b,c', n=1, big=1513135677000, d=2.5, ts=2017-09-15 23:00:00, and NULL
 * columns ns, ni, nb, nd, nts.
 */
class BuiltinFunctionsTest {

    /** expression -> expected text (CAST(... AS VARCHAR), NULL for null). */
    private static void check(Map<String, String> cases) throws Exception {
        check(cases, "");
    }

    private static void check(Map<String, String> cases, String prelude) throws Exception {
        List<String> exprs = new ArrayList<>(cases.keySet());
        List<String> actual = FunctionTesting.eval(exprs, prelude);
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            if (!cases.get(exprs.get(i)).equals(actual.get(i))) {
                wrong.add(exprs.get(i) + " gave " + actual.get(i) + ", expected " + cases.get(exprs.get(i)));
            }
        }
        assertEquals(List.of(), wrong);
    }

    private static Map<String, String> cases(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (m.put(pairs[i], pairs[i + 1]) != null) {
                throw new IllegalArgumentException("duplicate case " + pairs[i]);
            }
        }
        return m;
    }

    @Test
    void strings() throws Exception {
        check(cases(
                "CONCAT(s, '-', CAST(n AS VARCHAR))", "a,b,c-1",
                "CONCAT(s, ns)", "NULL",
                "CONCAT(ns)", "NULL",
                "CONCAT_WS('|', s, ns, 'x')", "a,b,c|x",
                "CONCAT_WS(ns, 'a', 'b')", "NULL",
                "CONCAT_WS('|', ns, ns)", "",
                "INITCAP(ns)", "NULL",
                "INITCAP('ÉCOLE normale')", "École Normale",
                "INSTR(s, ',')", "2",
                "INSTR(s, ',', 3)", "4",
                "INSTR(s, ',', -1)", "4",
                "INSTR(s, ',', -3)", "2",
                "INSTR(s, ',', 0)", "0",
                "INSTR(s, ',', 1, 3)", "0",
                "INSTR(ns, ',')", "NULL",
                "INSTR(s, ',', ni)", "NULL",
                "LOCATE(',', s)", "2",
                "LOCATE(',', s, 0)", "0",
                "LPAD(s, 7, '*')", "**a,b,c",
                "LPAD(s, 2, '*')", "a,",
                "LPAD(s, -1, '*')", "NULL",
                "LPAD(s, 7, '')", "NULL",
                "LPAD(s, 5, '')", "a,b,c",
                "RPAD(s, 6, 'xy')", "a,b,cx",
                "RPAD(ns, 6, 'xy')", "NULL",
                "REPEAT(s, 0)", "",
                "REPEAT(s, -2)", "",
                "REPEAT(ns, 2)", "NULL",
                "REVERSE(s)", "c,b,a",
                "SUBSTRING(s, 3)", "b,c",
                "SUBSTRING(s, 0)", "a,b,c",
                "SUBSTRING(s, -2, 1)", ",",
                "SUBSTRING(s, 9)", "",
                "SUBSTRING(s, -9)", "",
                "SUBSTRING(s, 2, -1)", "NULL",
                "SUBSTRING(s FROM 2 FOR 2)", ",b",
                "SUBSTRING(ns, 1)", "NULL",
                "SUBSTR(s, n + 1, 100)", ",b,c",
                "LTRIM(CONCAT('  ', s))", "a,b,c",
                "RTRIM(ns)", "NULL",
                "LEFT(s, 0)", "",
                "LEFT(s, 100)", "a,b,c",
                "RIGHT(s, -1)", "",
                "SPLIT_INDEX(s, ',', 0)", "a",
                "SPLIT_INDEX(s, ',', 2)", "c",
                "SPLIT_INDEX(s, ',', -1)", "NULL",
                "SPLIT_INDEX(s, ',', 3)", "NULL",
                "SPLIT_INDEX(s, 'b,', 1)", "c",
                "SPLIT_INDEX(s, '', 0)", "a,b,c",
                "SPLIT_INDEX(s, '.', 0)", "a,b,c",
                "SPLIT_INDEX(ns, ',', 0)", "NULL",
                "SPLIT_INDEX(s, ',', ni)", "NULL",
                "SPLIT_INDEX('a||b', '||', 1)", "b",
                "KEYVALUE('k1=v1;k2=v2', ';', '=', 'k1')", "v1",
                "KEYVALUE('k1=v1;k2=v2=x', ';', '=', 'k2')", "v2=x",
                "KEYVALUE('k1:v1,k2:v2', ',;', ':', 'k2')", "v2",
                "KEYVALUE(ns, ';', '=', 'k1')", "NULL",
                "KEYVALUE('k1=v1', ';', '=', ns)", "NULL",
                "STR_TO_MAP('a=1,b')['b']", "NULL",
                "CARDINALITY(STR_TO_MAP(''))", "0",
                "STR_TO_MAP('a = 1 ; b = 2', '\\s*;\\s*', '\\s*=\\s*')['b']", "2",
                "STR_TO_MAP(ns) IS NULL", "TRUE",
                "JSON_VALUE('{\"a\":{\"b\":[1,{\"c\":true}]}}', '$.a.b[1].c')", "true",
                "JSON_VALUE('{\"a\":{\"b\":[1,2]}}', '$.a')", "{\"b\":[1,2]}",
                "JSON_VALUE('{\"a\":1.50}', '$.a')", "1.50",
                "JSON_VALUE('{\"a\":null}', '$.a')", "NULL",
                "JSON_VALUE('{\"a\":1}', '$.b')", "NULL",
                "JSON_VALUE('{\"aaa\":\"bbb\",\"ccc\":{\"hhh\":[\"h0\",\"h1\",\"h2\"]}}', '$.ccc.hhh[*]')",
                "[\"h0\",\"h1\",\"h2\"]",
                "JSON_VALUE('{\"aaa\":\"bbb\",\"ccc\":{\"hhh\":[\"h0\",\"h1\",\"h2\"]}}', '$.ccc.hhh[1]')", "h1",
                "JSON_VALUE(ns, '$.a')", "NULL",
                "JSON_VALUE('[10, 20]', ns)", "NULL",
                "JSON_VALUE('not json', '$')", "NULL",
                "JSON_VALUE('{\"a\":1}', 'bad path')", "NULL",
                "PARSE_URL('http://user@a.com:8080/p?k=v#r', 'AUTHORITY')", "user@a.com:8080",
                "PARSE_URL('http://user@a.com:8080/p?k=v#r', 'USERINFO')", "user",
                "PARSE_URL('http://a.com/p?k=v#r', 'PROTOCOL')", "http",
                "PARSE_URL('http://a.com/p?k=v#r', 'FILE')", "/p?k=v",
                "PARSE_URL('http://a.com/p?k=v#r', 'REF')", "r",
                "PARSE_URL('http://a.com/p?k=v#r', 'QUERY')", "k=v",
                "PARSE_URL('http://a.com/p?k=v#r', 'QUERY', 'z')", "NULL",
                "PARSE_URL('not a url', 'HOST')", "NULL",
                "PARSE_URL(ns, 'HOST')", "NULL",
                "REGEXP(s, 'b')", "TRUE",
                "REGEXP(s, '^b')", "FALSE",
                "REGEXP(s, '(')", "NULL",
                "REGEXP(ns, 'b')", "NULL",
                "REGEXP(s, CONCAT('^', 'a'))", "TRUE",
                "REGEXP_EXTRACT(s, '([a-z]),([a-z])', 2)", "b",
                "REGEXP_EXTRACT(s, '([a-z]),([a-z])')", "a",
                "REGEXP_EXTRACT(s, '([a-z]),([a-z])', 3)", "NULL",
                "REGEXP_EXTRACT(s, 'x(y)', 1)", "NULL",
                "REGEXP_EXTRACT(s, ns, 1)", "NULL",
                "REGEXP_REPLACE(s, ',', ';')", "a;b;c",
                "REGEXP_REPLACE(s, '[', ';')", "NULL",
                "REGEXP_REPLACE(ns, ',', ';')", "NULL",
                "MD5('')", "d41d8cd98f00b204e9800998ecf8427e",
                "MD5(ns)", "NULL",
                "SHA256(ns)", "NULL",
                "SHA2('abc', 0)", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                "HASH_CODE('')", "0",
                "MURMUR_HASH('')", "0",
                "MURMUR_HASH('hello')", "613153351",
                "MURMUR_HASH(ns)", "NULL",
                "MURMUR_HASH_64('hello')", "-3758069500696749310",
                "TO_BASE64(ns)", "NULL",
                "TO_BASE64(ENCODE('hi', 'UTF-8'))", "aGk=",
                "FROM_BASE64('%%%')", "NULL",
                "FROM_BASE64(TO_BASE64('héllo'))", "héllo",
                "CHR(353)", "a",
                "CHR(-1)", "NULL",
                "CHAR_LENGTH(UUID()) + CHAR_LENGTH(UUID())", "72",
                "UUID() <> UUID()", "TRUE",
                "URL_ENCODE(ns)", "NULL",
                "HEX(-1)", "FFFFFFFFFFFFFFFF",
                "HEX(ns)", "NULL",
                "CHAR_LENGTH(s)", "5",
                "UPPER(ns)", "NULL",
                "REPLACE(s, ',', '')", "abc",
                "POSITION('c' IN s)", "5",
                "TRIM(BOTH ',' FROM ',a,')", "a",
                "OVERLAY(s PLACING 'X' FROM 3 FOR 1)", "a,X,c",
                "ASCII(ns)", "NULL"));
    }

    @Test
    void dateAndTimeInUtc() throws Exception {
        check(cases(
                "UNIX_TIMESTAMP(ts)", "1505516400",
                "UNIX_TIMESTAMP(nts)", "NULL",
                "UNIX_TIMESTAMP('2017-09-15 23:00:00')", "1505516400",
                "UNIX_TIMESTAMP('2017-09-15')", "NULL",
                "UNIX_TIMESTAMP('2017-02-30 00:00:00')", "NULL",
                "UNIX_TIMESTAMP(ns)", "NULL",
                "UNIX_TIMESTAMP('2017-09-15', ns)", "NULL",
                "UNIX_TIMESTAMP() > 1500000000", "TRUE",
                "FROM_UNIXTIME(0)", "1970-01-01 00:00:00",
                "FROM_UNIXTIME(-1)", "1969-12-31 23:59:59",
                "FROM_UNIXTIME(nb)", "NULL",
                "FROM_UNIXTIME(big / 1000, 'HH:mm:ss')", "03:27:57",
                "TO_TIMESTAMP(big)", "2017-12-13 03:27:57.000",
                // A cast to text keeps the type's fraction digits, as in Flink.
                "CAST(ts AS VARCHAR)", "2017-09-15 23:00:00.000",
                "CAST(TIMESTAMP '2024-01-01 10:00:00' AS VARCHAR)", "2024-01-01 10:00:00",
                "TO_TIMESTAMP(nb)", "NULL",
                "DATE_FORMAT(TO_TIMESTAMP('2017-09-15 23:00:00.123'), 'HH:mm:ss.SSS')", "23:00:00.123",
                "TO_TIMESTAMP('2017-09-15T23:00')", "2017-09-15 23:00:00.000",
                "TO_TIMESTAMP('2017-09-15')", "2017-09-15 00:00:00.000",
                "TO_TIMESTAMP('2017-13-15 00:00:00')", "NULL",
                "TO_TIMESTAMP('x')", "NULL",
                "TO_TIMESTAMP(ns)", "NULL",
                "TO_TIMESTAMP('2017/09/15', 'yyyy/MM/dd')", "2017-09-15 00:00:00.000",
                "TO_DATE(0)", "1970-01-01",
                "TO_DATE(-1)", "1969-12-31",
                "TO_DATE(ni)", "NULL",
                "TO_DATE('2017-09-15 10:00:00')", "2017-09-15",
                "TO_DATE('2017-9-15')", "NULL",
                "DATE_FORMAT(ts, 'yyyy-MM-dd')", "2017-09-15",
                "DATE_FORMAT(nts, 'yyyy')", "NULL",
                "DATE_FORMAT(ts, ns)", "NULL",
                "DATE_FORMAT('2017-09-15 23:00:00', 'HH')", "23",
                "DATE_FORMAT('2017-09-15', 'yyyy')", "NULL",
                "DATE_FORMAT('15.09.2017', 'dd.MM.yyyy', 'yyyy')", "2017",
                "DATE_FORMAT(CAST(ts AS DATE), 'yyyyMMdd')", "20170915",
                "DATE_FORMAT_TZ(ts, 'HH:mm', 'Asia/Shanghai')", "07:00",
                "DATE_FORMAT_TZ(nts, 'Asia/Shanghai')", "NULL",
                "DATE_FORMAT_TZ(ts, 'GMT+05:30')", "2017-09-16 04:30:00",
                "TO_TIMESTAMP_TZ('2017-09-16 07:00:00', 'Asia/Shanghai')", "2017-09-15 23:00:00.000",
                "TO_TIMESTAMP_TZ('16/09/2017 07', 'dd/MM/yyyy HH', 'Asia/Shanghai')", "2017-09-15 23:00:00.000",
                "CONVERT_TZ('2017-09-15 23:00:00', 'UTC', 'Asia/Shanghai')", "2017-09-16 07:00:00",
                "CONVERT_TZ(ns, 'UTC', 'Asia/Shanghai')", "NULL",
                "DATE_ADD(ts, 1)", "2017-09-16",
                "DATE_ADD('2017-12-31', 1)", "2018-01-01",
                "DATE_ADD('2017-12-31', -365)", "2016-12-31",
                "DATE_ADD('bad', 1)", "NULL",
                "DATE_ADD(nts, 1)", "NULL",
                "DATE_ADD(ts, ni)", "NULL",
                "DATE_SUB(ts, 15)", "2017-08-31",
                "DATE_SUB('2017-03-01', 1)", "2017-02-28",
                "DATEDIFF(ts, '2017-09-01')", "14",
                "DATEDIFF('2017-09-01', ts)", "-14",
                "DATEDIFF(ts, TIMESTAMP '2017-09-15 00:00:00')", "0",
                "DATEDIFF(ns, ts)", "NULL",
                "DATEDIFF('x', '2017-09-01')", "NULL",
                "NOW() - NOW(-10) BETWEEN 9 AND 11", "TRUE",
                "YEAR(ts)", "2017",
                "QUARTER(ts)", "3",
                "WEEK(ts)", "37",
                "DAYOFYEAR(ts)", "258",
                "MINUTE(ts)", "0",
                "CEIL(ts TO DAY)", "2017-09-16 00:00:00.000",
                "TIMESTAMPADD(MONTH, 1, nts)", "NULL"));
    }

    @Test
    void zoneDependentFunctionsUseTheJobTimeZone() throws Exception {
        Map<String, String> shanghai = cases(
                "TO_TIMESTAMP(big)", "2017-12-13 11:27:57.000",
                "FROM_UNIXTIME(0)", "1970-01-01 08:00:00",
                "UNIX_TIMESTAMP('1970-01-01 08:00:00')", "0",
                "UNIX_TIMESTAMP(ts)", "1505487600",
                "DATE_FORMAT_TZ(ts, 'UTC')", "2017-09-15 15:00:00",
                "TO_TIMESTAMP_TZ('2017-09-15 15:00:00', 'UTC')", "2017-09-15 23:00:00.000",
                "DATE_FORMAT(ts, 'HH')", "23",
                "TO_TIMESTAMP('2017-09-15 23:00:00')", "2017-09-15 23:00:00.000");
        check(shanghai, "SET 'table.local-time-zone' = 'Asia/Shanghai';\n");
        check(cases("FROM_UNIXTIME(0)", "1969-12-31 16:00:00"), "SET 'blink.job.timeZone' = 'America/Los_Angeles';\n");
        check(cases("FROM_UNIXTIME(0)", "1970-01-01 05:30:00", "TO_TIMESTAMP(0)", "1970-01-01 05:30:00.000"),
                "SET 'table.local-time-zone' = '+05:30';\n");
    }

    /** As in Flink, a job without table.local-time-zone uses the system's zone. */
    @Test
    void theDefaultTimeZoneIsTheSystems() throws Exception {
        java.util.TimeZone system = java.util.TimeZone.getDefault();
        java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("Asia/Kolkata"));
        try {
            check(cases("FROM_UNIXTIME(0)", "1970-01-01 05:30:00"), "");
            check(cases("FROM_UNIXTIME(0)", "1970-01-01 00:00:00"), "SET 'table.local-time-zone' = 'UTC';\n");
        } finally {
            java.util.TimeZone.setDefault(system);
        }
    }

    @Test
    void conditionalAndNumeric() throws Exception {
        check(cases(
                "IF(n = 1, s, 'no')", "a,b,c",
                "IF(ni = 1, 'yes', 'no')", "no",
                "IF(n = 1, 1, 2.5)", "1.0",
                "IF(n = 0, 1 / (n - 1), 7)", "7",
                "IF(n = 1, ns, 'x')", "NULL",
                "IS_ALPHA(s)", "FALSE",
                "IS_ALPHA(ns)", "FALSE",
                "IS_ALPHA('')", "FALSE",
                "IS_DIGIT(CAST(n AS VARCHAR))", "TRUE",
                "IS_DIGIT(ns)", "FALSE",
                "IS_DECIMAL('.5')", "TRUE",
                "IS_DECIMAL('5.')", "TRUE",
                "IS_DECIMAL('-')", "FALSE",
                "IS_DECIMAL('1e5')", "FALSE",
                "IS_DECIMAL(ns)", "FALSE",
                "LOG(d)", "0.9162907318741551",
                "LOG(2, big)", "40.4606784928647",
                "LOG(0)", "NULL",
                "LOG(-1, 8)", "NULL",
                "LOG(nd)", "NULL",
                "LOG2(1024)", "10.0",
                "ROUND(COSH(d), 3)", "6.132",
                "ISNAN(d)", "FALSE",
                "ISNAN(nd)", "NULL",
                "BIN(0)", "0",
                "BIN(nb)", "NULL",
                "BIN(n + 4)", "101",
                "CONV(big, 10, 16)", "1604DEA1E48",
                "CONV('1604dea1e48', 16, 10)", "1513135677000",
                "CONV('zz', 36, 10)", "1295",
                "CONV('12x', 10, 10)", "12",
                "CONV('x', 10, 10)", "0",
                "CONV('10', 10, 37)", "NULL",
                "CONV('FFFFFFFFFFFFFFFF', 16, -10)", "-1",
                "CONV('FFFFFFFFFFFFFFFFF', 16, 10)", "18446744073709551615",
                "CONV(ns, 10, 2)", "NULL",
                "CONV(s, ni, 2)", "NULL",
                "BITAND(n, 3)", "1",
                "BITOR(big, 1)", "1513135677001",
                "BITXOR(ni, 1)", "NULL",
                "BITNOT(n)", "-2",
                "GREATEST(n, 2, 0)", "2",
                "LEAST(d, 1.5)", "1.5",
                "GREATEST(ni, 1)", "NULL",
                "E() > 2.71", "TRUE",
                "PI() = PI", "TRUE",
                "TRUNCATE(d, 0)", "2.0",
                "ROUND(d)", "3.0",
                "MOD(big, 7)", "3",
                "8 / 4", "2",
                "COALESCE(ni, n)", "1",
                "NULLIF(s, 'a,b,c')", "NULL",
                "CARDINALITY(STR_TO_MAP(ns))", "NULL"));
    }

    @Test
    void calciteNumericFunctionsKeptForTheirBlinkSemantics() throws Exception {
        check(cases(
                "ABS(-d)", "2.5",
                "ABS(ni)", "NULL",
                "ACOS(1)", "0E0",
                "ASIN(nd)", "NULL",
                "ROUND(ASIN(1), 4)", "1.5708",
                "COS(0)", "1.0",
                "ROUND(COT(1), 4)", "0.6421",
                "SIN(0) = 0", "TRUE",
                "ROUND(DEGREES(PI()), 6)", "180.0",
                "ROUND(RADIANS(180), 6)", "3.141593",
                "EXP(0)", "1.0",
                "LN(1) = 0", "TRUE",
                "LN(nd)", "NULL",
                "LOG10(100)", "2.0",
                "POWER(d, 2)", "6.25",
                "POWER(nd, 2)", "NULL",
                "SQRT(16)", "4.0",
                "ROUND(ATAN(1), 4)", "0.7854",
                "ROUND(TAN(1), 4)", "1.5574",
                "SIGN(-d)", "-1.0",
                "MOD(7, ni)", "NULL",
                "CEIL(d)", "3.0",
                "FLOOR(-d)", "-3.0",
                "ROUND(2.345, 1)", "2.3",
                "ROUND(-2.5)", "-3",
                "TRUNCATE(2.567, 2)", "2.56",
                "RAND() BETWEEN 0 AND 1", "TRUE",
                "RAND(42) = RAND(42)", "TRUE",
                "RAND_INTEGER(10) BETWEEN 0 AND 9", "TRUE",
                "TRY_CAST(s AS INT)", "NULL"));
    }

    @Test
    void constantPatternsAreCompiledOncePerJobAndCallsAreDirect() {
        String source = new dev.rsql.planner.ScriptPlanner(dev.rsql.planner.PlannerContext.defaults()).plan("t",
                TestJob.source("cp", FunctionTesting.FIXTURE_COLUMNS)
                        + "CREATE TABLE o (a VARCHAR, b VARCHAR, c VARCHAR, e VARCHAR) WITH (type = 'collect', id = 'x');\n"
                        + "INSERT INTO o SELECT REGEXP_EXTRACT(s, '([a-z]),', 1), DATE_FORMAT(ts, 'yyyyMMdd'), "
                        + "JSON_VALUE(s, '$.a'), REGEXP_EXTRACT(s, ns) FROM cp").generatedSource();
        assertTrue(source.contains("static final dev.rsql.planner.functions.Regex"), source);
        assertTrue(source.contains("= dev.rsql.planner.functions.Regex.compile(\"([a-z]),\")"), source);
        assertTrue(source.contains("static final dev.rsql.planner.functions.DateFormat"), source);
        assertTrue(source.contains("static final dev.rsql.planner.functions.JsonPath"), source);
        assertTrue(source.contains("dev.rsql.planner.functions.StringFunctions.regexpExtract("), source);
        // a pattern from a column is compiled per row (through a cache)
        assertTrue(source.contains("dev.rsql.planner.functions.Regex.compile(input_value"), source);
    }

    @Test
    void badArgumentsGiveAnErrorNamingTheFunction() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> FunctionTesting.eval(List.of("INSTR(s, ',', 1, 0)")));
        String m = String.valueOf(e.getCause());
        assertTrue(m.contains("INSTR('a,b,c', ',', 1, 0) failed") && m.contains("nth_appearance must be positive"), m);
        assertTrue(m.contains("record at"), m);

        // a pattern or zone from a column fails on the record; a constant one already while planning
        e = assertThrows(AssertionError.class, () -> FunctionTesting.eval(List.of("DATE_FORMAT(ts, CONCAT(s, 'qq'))")));
        m = String.valueOf(e.getCause());
        assertTrue(m.contains("DATE_FORMAT(") && m.contains("invalid date format 'a,b,cqq'"), m);
        e = assertThrows(AssertionError.class,
                () -> FunctionTesting.eval(List.of("DATE_FORMAT_TZ(ts, CONCAT('Mars/', s))")));
        m = String.valueOf(e.getCause());
        assertTrue(m.contains("DATE_FORMAT_TZ(") && m.contains("unknown time zone"), m);
        PlanningException planning = assertThrows(PlanningException.class,
                () -> FunctionTesting.eval(List.of("DATE_FORMAT(ts, 'yyyy-qq')")));
        assertTrue(planning.getMessage().contains("DATE_FORMAT: invalid date format 'yyyy-qq'"), planning.getMessage());
        planning = assertThrows(PlanningException.class,
                () -> FunctionTesting.eval(List.of("CONVERT_TZ('2017-01-01 00:00:00', 'UTC', 'Mars/Olympus')")));
        assertTrue(planning.getMessage().contains("CONVERT_TZ: unknown time zone 'Mars/Olympus'"), planning.getMessage());

        PlanningException p = assertThrows(PlanningException.class,
                () -> FunctionTesting.eval(List.of("SPLIT_INDEX(s, ',')")));
        assertTrue(p.getMessage().contains("SPLIT_INDEX(VARCHAR s, VARCHAR sep, INT index)"), p.getMessage());

        p = assertThrows(PlanningException.class, () -> FunctionTesting.eval(List.of("SPLIT_INDEX(s, ',', TRUE)")));
        assertTrue(p.getMessage().contains("Cannot apply 'SPLIT_INDEX'"), p.getMessage());

        p = assertThrows(PlanningException.class, () -> FunctionTesting.eval(List.of("NO_SUCH_FUNCTION(s)")));
        assertTrue(p.getMessage().contains("NO_SUCH_FUNCTION"), p.getMessage());

        p = assertThrows(PlanningException.class, () -> FunctionTesting.eval(List.of("1"),
                "SET 'table.local-time-zone' = 'Nowhere/Land';\n"));
        assertTrue(p.getMessage().contains("unknown time zone 'Nowhere/Land'"), p.getMessage());
    }

    @Test
    void argumentsOfOtherTypesAreConverted() throws Exception {
        check(cases(
                "SPLIT_INDEX(s, ',', '1')", "b",
                "CONCAT(s, n, d)", "a,b,c12.5",
                "REPEAT(s, CAST(2 AS BIGINT))", "a,b,ca,b,c",
                "CONV(255, 10, 16)", "FF",
                "DATE_ADD(CAST(ts AS DATE), 1)", "2017-09-16",
                "LOG(CAST(100 AS DECIMAL(10, 2)))", "4.605170185988092",
                "FROM_UNIXTIME(n)", "1970-01-01 00:00:01",
                "DATE_FORMAT(TO_TIMESTAMP(n), 'ss.SSS')", "00.001"));
    }
}
