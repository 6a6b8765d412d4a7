package com.example.bean;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** rsqldb bean-style table function: eval returns a list of maps, read by the LATERAL TABLE column names. */
public class KvRows {

    public List<Map<String, Object>> eval(String text) {
        List<Map<String, Object>> rows = new ArrayList<>();
        if (text == null) {
            return rows;
        }
        for (String pair : text.split("&")) {
            String[] kv = pair.split("=", 2);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("k", kv[0]);
            row.put("v", kv.length > 1 ? Integer.valueOf(kv[1]) : null);
            rows.add(row);
        }
        return rows;
    }
}
