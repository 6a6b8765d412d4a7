package dev.rsql.cli.web;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.testing.Await;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Debian's Chromium, headless, driven over the Chrome DevTools Protocol (a WebSocket and JSON: no WebDriver, no
 * dependency): opens a page, evaluates JavaScript in it, and collects what the page reports as a problem (console
 * errors, uncaught exceptions, failed loads).
 */
final class HeadlessChromium implements AutoCloseable {

    static final String PACKAGE = "chromium";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome");

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JSONObject>> pending = new ConcurrentHashMap<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();

    private HeadlessChromium(Process process, WebSocket socket) {
        this.process = process;
        this.socket = socket;
    }

    /** Starts a browser with its profile in {@code profile} and connects to its one page. */
    static HeadlessChromium launch(Path profile) throws Exception {
        String executable = executable();
        Files.createDirectories(profile);
        Process process = new ProcessBuilder(executable, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--remote-debugging-port=0", "--user-data-dir=" + profile, "about:blank")
                .redirectErrorStream(true)
                .redirectOutput(profile.resolve("chromium.log").toFile())
                .start();
        try {
            Path portFile = profile.resolve("DevToolsActivePort");
            Await.until(() -> "Chromium to listen for DevTools (" + executable + " alive: " + process.isAlive() + ")",
                    TIMEOUT, () -> !process.isAlive() || hasPort(portFile));
            if (!process.isAlive()) {
                throw new AssertionError(executable + " exited with " + process.exitValue() + ":\n"
                        + Files.readString(profile.resolve("chromium.log")));
            }
            int port = Integer.parseInt(Files.readAllLines(portFile).get(0).trim());
            HttpClient http = HttpClient.newHttpClient();
            String list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                    .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString()).body();
            String page = null;
            JSONArray targets = JSON.parseArray(list);
            for (int i = 0; i < targets.size() && page == null; i++) {
                JSONObject t = targets.getJSONObject(i);
                if ("page".equals(t.getString("type"))) {
                    page = t.getString("webSocketDebuggerUrl");
                }
            }
            if (page == null) {
                throw new AssertionError("Chromium shows no page to drive: " + list);
            }
            Listener listener = new Listener();
            WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create(page), listener)
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            HeadlessChromium chromium = new HeadlessChromium(process, socket);
            listener.chromium = chromium;
            chromium.call("Runtime.enable", new JSONObject());
            chromium.call("Log.enable", new JSONObject());
            chromium.call("Page.enable", new JSONObject());
            return chromium;
        } catch (Exception | AssertionError e) {
            process.destroyForcibly();
            throw e;
        }
    }

    private static boolean hasPort(Path portFile) {
        try {
            return Files.isRegularFile(portFile) && !Files.readAllLines(portFile).isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    /** The browser on the PATH (or in {@code $CHROMIUM}); fails naming the package to install when there is none. */
    private static String executable() {
        String configured = System.getenv("CHROMIUM");
        if (configured != null && !configured.isBlank()) {
            if (!new File(configured).canExecute()) {
                throw new AssertionError("CHROMIUM is set to " + configured + ", which is not an executable; unset it"
                        + " to use Debian's package '" + PACKAGE + "' (apt-get install " + PACKAGE + ")");
            }
            return configured;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            for (String name : NAMES) {
                File f = new File(dir, name);
                if (f.canExecute()) {
                    return f.getPath();
                }
            }
        }
        throw new AssertionError("no Chromium to test the status page with: install Debian's package '" + PACKAGE
                + "' (apt-get install " + PACKAGE + "; .ci/run does it), or set CHROMIUM to a Chromium executable");
    }

    /** Opens the page at {@code url} (loading goes on after this returns). */
    void open(String url) throws Exception {
        JSONObject params = new JSONObject();
        params.put("url", url);
        JSONObject result = call("Page.navigate", params);
        if (result.getString("errorText") != null) {
            throw new AssertionError("Chromium cannot open " + url + ": " + result.getString("errorText"));
        }
    }

    /** The value of a JavaScript expression in the page (JSON-like values; a promise is awaited). */
    Object evaluate(String expression) throws Exception {
        JSONObject params = new JSONObject();
        params.put("expression", expression);
        params.put("returnByValue", true);
        params.put("awaitPromise", true);
        JSONObject result = call("Runtime.evaluate", params);
        JSONObject thrown = result.getJSONObject("exceptionDetails");
        if (thrown != null) {
            throw new AssertionError("evaluating " + expression + " threw: " + describe(thrown));
        }
        return result.getJSONObject("result").get("value");
    }

    /** Console errors, uncaught exceptions and failed loads the page reported so far. */
    List<String> problems() {
        return new ArrayList<>(problems);
    }

    private JSONObject call(String method, JSONObject params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JSONObject> answer = new CompletableFuture<>();
        pending.put(id, answer);
        JSONObject message = new JSONObject();
        message.put("id", id);
        message.put("method", method);
        message.put("params", params);
        socket.sendText(message.toJSONString(), true).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        return answer.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void received(JSONObject message) {
        Integer id = message.getInteger("id");
        if (id != null) {
            CompletableFuture<JSONObject> answer = pending.remove(id);
            if (answer != null) {
                JSONObject error = message.getJSONObject("error");
                if (error != null) {
                    answer.completeExceptionally(new AssertionError("DevTools refused: " + error));
                } else {
                    answer.complete(message.getJSONObject("result"));
                }
            }
            return;
        }
        JSONObject params = message.getJSONObject("params");
        switch (String.valueOf(message.getString("method"))) {
            case "Runtime.consoleAPICalled" -> {
                String type = params.getString("type");
                if (type.equals("error") || type.equals("assert")) {
                    problems.add("console." + type + ": " + params.getJSONArray("args"));
                }
            }
            case "Runtime.exceptionThrown" -> problems.add("uncaught: " + describe(params.getJSONObject("exceptionDetails")));
            case "Log.entryAdded" -> {
                JSONObject entry = params.getJSONObject("entry");
                if ("error".equals(entry.getString("level"))) {
                    problems.add("log: " + entry.getString("text") + " " + entry.getString("url"));
                }
            }
            default -> {
            }
        }
    }

    private static String describe(JSONObject exceptionDetails) {
        JSONObject exception = exceptionDetails.getJSONObject("exception");
        return exceptionDetails.getString("text") + (exception == null ? "" : " " + exception.getString("description"))
                + " at line " + exceptionDetails.getIntValue("lineNumber") + ":" + exceptionDetails.getIntValue("columnNumber")
                + " of " + exceptionDetails.getString("url");
    }

    @Override
    public void close() throws InterruptedException {
        socket.abort();
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** Joins a message's frames and hands it to the browser object. */
    private static final class Listener implements WebSocket.Listener {

        private final StringBuilder text = new StringBuilder();
        volatile HeadlessChromium chromium;

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                String message = text.toString();
                text.setLength(0);
                HeadlessChromium c = chromium;
                if (c != null) {
                    c.received(JSON.parseObject(message));
                }
            }
            webSocket.request(1);
            return null;
        }
    }
}
