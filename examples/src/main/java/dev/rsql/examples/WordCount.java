package dev.rsql.examples;

import dev.rsql.sdk.dsl.StreamBuilder;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * Counts the words of a text file (default {@code data/words.txt}): each line split into words, grouped by word,
 * counted. The count per word is an update stream, so the printed rows show each change: {@code +I} for a word's first
 * count, then {@code -U}/{@code +U} as it grows.
 */
public final class WordCount {

    public static void main(String[] args) throws Exception {
        String path = args.length > 0 ? args[0] : Run.dir().resolve("data/words.txt").toString();
        StreamBuilder builder = new StreamBuilder("word-count");
        builder.source("lines", String.class, Map.of("connector", "file", "path", path, "format", "raw"))
                .flatMap(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\W+")), String.class)
                .filter(word -> !word.isEmpty())
                .keyBy(word -> word, String.class)
                .count()
                .print("word-count");
        Run.toEnd(builder.build());
    }
}
