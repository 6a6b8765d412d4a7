package dev.rsql.runtime.text;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DisplayWidthTest {

    @Test
    void wideCharactersTakeTwoColumns() {
        assertEquals(5, DisplayWidth.of("hello"));
        assertEquals(4, DisplayWidth.of("北京"));
        assertEquals(2, DisplayWidth.of("🚀"));
        assertEquals(2, DisplayWidth.of("，"));
        assertEquals(4, DisplayWidth.of("한국"));
        assertEquals(1, DisplayWidth.of("e\u0301"));
        assertEquals(7, DisplayWidth.of("ab风控🚀".substring(0, 4) + "x"));
    }

    @Test
    void cuttingNeverSplitsACharacter() {
        assertEquals("北", DisplayWidth.cut("北京🚀", 3));
        assertEquals("北京", DisplayWidth.cut("北京🚀", 5));
        assertEquals("北京🚀", DisplayWidth.cut("北京🚀", 6));
        assertEquals("a", DisplayWidth.cut("a🚀b", 2));
        assertEquals("北京  ", DisplayWidth.padRight("北京", 6));
        assertEquals("北京", DisplayWidth.padRight("北京", 3));
    }
}
