/**
 * The engine as a library. {@code RsqlEngine} runs SQL scripts (and DSL topologies) inside an application, in the
 * same local and distributed modes as the command line; the typed DSL builds the same operator graphs the SQL
 * planner builds.
 */
package dev.rsql.sdk;
