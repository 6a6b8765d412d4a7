package dev.rsql.planner.catalog;

import dev.rsql.planner.PlanningException;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The tables, views and functions a script declares. Names are case-insensitive (Blink); tables and views share
 * one namespace.
 */
public final class ScriptCatalog {

    private final Map<String, CatalogTable> tables = new LinkedHashMap<>();
    private final Map<String, CatalogView> views = new LinkedHashMap<>();
    private final Map<String, CatalogFunction> functions = new LinkedHashMap<>();

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** Adds a table; returns false (and keeps the old one) when it exists and {@code ifNotExists} is set. */
    public boolean addTable(CatalogTable table, boolean ifNotExists) {
        if (!checkNew(table.name(), table.position(), ifNotExists)) {
            return false;
        }
        tables.put(key(table.name()), table);
        return true;
    }

    public boolean addView(CatalogView view, boolean ifNotExists, boolean replace) {
        if (replace) {
            if (tables.containsKey(key(view.name()))) {
                throw new PlanningException(view.position(), "cannot replace table " + view.name() + " by a view");
            }
        } else if (!checkNew(view.name(), view.position(), ifNotExists)) {
            return false;
        }
        views.put(key(view.name()), view);
        return true;
    }

    public boolean addFunction(CatalogFunction function, boolean ifNotExists, boolean replace) {
        if (functions.containsKey(key(function.name())) && !replace) {
            if (ifNotExists) {
                return false;
            }
            throw new PlanningException(function.position(), "function " + function.name() + " is already defined");
        }
        functions.put(key(function.name()), function);
        return true;
    }

    private boolean checkNew(String name, SqlParserPos pos, boolean ifNotExists) {
        if (tables.containsKey(key(name)) || views.containsKey(key(name))) {
            if (ifNotExists) {
                return false;
            }
            throw new PlanningException(pos, "table or view " + name + " is already defined");
        }
        return true;
    }

    public CatalogTable table(String name) {
        return tables.get(key(name));
    }

    public CatalogView view(String name) {
        return views.get(key(name));
    }

    public CatalogFunction function(String name) {
        return functions.get(key(name));
    }

    public Collection<CatalogTable> tables() {
        return tables.values();
    }

    public Collection<CatalogView> views() {
        return views.values();
    }

    public Collection<CatalogFunction> functions() {
        return functions.values();
    }
}
