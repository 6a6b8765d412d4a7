package dev.rsql.runtime.exec;

import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.graph.GraphNode;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.SinkNode;
import dev.rsql.runtime.graph.SourceNode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a checkpoint belongs to, recorded with it: per source table its connector and what it reads
 * ({@link Source#identity()}), and per stateful operator (by node id) a digest of its definition and the sink tables
 * of the statements it serves. A restart compares the checkpoint's with its own ({@link CheckpointMatch}).
 */
record StateIdentity(Map<String, String> sources, Map<String, Operator> operators) {

    /** A stateful operator: a digest of its node (id, input and output types) and the sinks it feeds. */
    record Operator(String digest, List<String> sinks) {
    }

    /** The identity of a job about to run: its graph and its sources as created. */
    static StateIdentity of(JobGraph graph, Map<SourceNode, Source> sources) {
        Map<String, String> s = new LinkedHashMap<>();
        sources.forEach((node, source) -> {
            String id = source.identity();
            s.put(node.table().name(), node.table().connector() + (id == null || id.isEmpty() ? "" : " " + id));
        });
        Map<String, Operator> ops = new LinkedHashMap<>();
        for (GraphNode n : graph.nodes()) {
            if (n.keepsState()) {
                ops.put(n.id(), new Operator(digest(n), sinksOf(graph, n)));
            }
        }
        return new StateIdentity(s, ops);
    }

    private static String digest(GraphNode n) {
        StringBuilder content = new StringBuilder(n.id()).append('|').append(n.kind());
        for (GraphNode in : n.inputs()) {
            content.append('|').append(in.outputType());
        }
        content.append('|').append(n.outputType());
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(content.toString().getBytes(StandardCharsets.UTF_8));
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 8; i++) {
                sb.append(String.format("%02x", h[i]));
            }
            return sb.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The sink tables downstream of a node, sorted. */
    private static List<String> sinksOf(JobGraph graph, GraphNode node) {
        Set<String> sinks = new TreeSet<>();
        Set<String> seen = new HashSet<>();
        Deque<GraphNode> todo = new ArrayDeque<>(List.of(node));
        while (!todo.isEmpty()) {
            GraphNode n = todo.pop();
            if (!seen.add(n.id())) {
                continue;
            }
            if (n instanceof SinkNode) {
                sinks.add(((SinkNode) n).table().name());
            }
            todo.addAll(graph.downstreamOf(n));
        }
        return new ArrayList<>(sinks);
    }

    JSONObject toJson() {
        JSONObject o = new JSONObject();
        o.put("sources", new JSONObject(new LinkedHashMap<>(sources)));
        JSONObject ops = new JSONObject();
        operators.forEach((id, op) -> {
            JSONObject j = new JSONObject();
            j.put("digest", op.digest());
            j.put("sinks", new JSONArray(op.sinks()));
            ops.put(id, j);
        });
        o.put("operators", ops);
        return o;
    }

    /** The identity recorded in a checkpoint's metadata, or null for a checkpoint written before they were. */
    static StateIdentity fromJson(JSONObject o) {
        if (o == null) {
            return null;
        }
        Map<String, String> s = new LinkedHashMap<>();
        JSONObject sources = o.getJSONObject("sources");
        if (sources != null) {
            sources.forEach((k, v) -> s.put(k, String.valueOf(v)));
        }
        Map<String, Operator> ops = new LinkedHashMap<>();
        JSONObject operators = o.getJSONObject("operators");
        if (operators != null) {
            for (String id : operators.keySet()) {
                JSONObject j = operators.getJSONObject(id);
                JSONArray sinks = j.getJSONArray("sinks");
                ops.put(id, new Operator(j.getString("digest"),
                        sinks == null ? List.of() : sinks.toList(String.class)));
            }
        }
        return new StateIdentity(s, ops);
    }
}
