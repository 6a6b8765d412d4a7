package dev.rsql.runtime.format.json;

import dev.rsql.runtime.format.FormatFactory;

/** The changelog JSON formats: payloads are changes of rows, and writing keeps each row's kind. */
abstract class ChangelogJsonFormatFactory implements FormatFactory {

    @Override
    public final boolean encodesRowKind() {
        return true;
    }

    @Override
    public final boolean decodesChangelog() {
        return true;
    }
}
