package dev.rsql.cli;

/** The command line is wrong: unknown option, missing or surplus argument, a value of the wrong kind, no such script. */
final class UsageException extends RuntimeException {

    UsageException(String message) {
        super(message);
    }
}
