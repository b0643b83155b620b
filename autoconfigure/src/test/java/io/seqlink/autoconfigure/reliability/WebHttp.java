package io.seqlink.autoconfigure.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Raw HTTP against the test server: any method, any content type, any body (the web package's client is package-private). */
final class WebHttp {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private WebHttp() {
    }

    static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return send(port, "GET", path, null, null);
    }

    static HttpResponse<String> send(int port, String method, String path, String contentType, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).timeout(Duration.ofSeconds(30));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
