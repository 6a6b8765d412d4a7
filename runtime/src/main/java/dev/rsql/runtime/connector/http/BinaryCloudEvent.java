package dev.rsql.runtime.connector.http;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A CloudEvent in the HTTP binding's binary mode, made from the structured event the {@code cloudevents} format
 * wrote: every attribute a {@code ce-<name>} header (values percent-encoded where HTTP headers cannot carry them, as
 * the binding says), {@code datacontenttype} the {@code Content-Type}, and the body the data itself.
 */
record BinaryCloudEvent(Map<String, String> headers, byte[] body, String id) {

    static BinaryCloudEvent of(byte[] structured) {
        JSONObject event = JSON.parseObject(new String(structured, StandardCharsets.UTF_8));
        Map<String, String> headers = new LinkedHashMap<>();
        String contentType = event.getString("datacontenttype");
        for (Map.Entry<String, Object> a : event.entrySet()) {
            String name = a.getKey();
            if (!name.equals("data") && !name.equals("data_base64") && !name.equals("datacontenttype")
                    && a.getValue() != null) {
                Object v = a.getValue();
                headers.put("ce-" + name, percentEncoded(v instanceof String s ? s : JSON.toJSONString(v)));
            }
        }
        byte[] body;
        if (event.containsKey("data_base64")) {
            body = Base64.getDecoder().decode(event.getString("data_base64"));
            contentType = contentType == null ? "application/octet-stream" : contentType;
        } else {
            Object data = event.get("data");
            boolean json = contentType == null || contentType.toLowerCase(Locale.ROOT).contains("json");
            String text = data == null ? "" : json ? JSON.toJSONString(data) : data.toString();
            body = text.getBytes(StandardCharsets.UTF_8);
            contentType = contentType == null ? "application/json" : contentType;
        }
        headers.put("Content-Type", contentType);
        return new BinaryCloudEvent(headers, body, event.getString("id"));
    }

    /** Printable ASCII but space, '"' and '%' as it is; every other byte of the UTF-8 text as %XX. */
    static String percentEncoded(String value) {
        StringBuilder sb = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c > 0x20 && c < 0x7f && c != '"' && c != '%') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return sb.toString();
    }
}
