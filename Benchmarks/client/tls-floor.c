/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SPDX-FileCopyrightText: CastDeck contributors */
// The physical floor of this machine for the client benchmarks, in C with OpenSSL:
//   tls-floor status HOST PORT     one process doing what `castctl status --json` does on the
//                                  wire (TLS handshake; CONNECT + GET_STATUS to receiver-0;
//                                  CONNECT + GET_STATUS to the media app; both answers read),
//                                  printing nothing but what it got
//   tls-floor ping HOST PORT N     N PING → PONG round trips on one connection; prints
//                                  "p50_ms P p99_ms Q"
//   tls-floor rate HOST PORT N     joins the media session as `status` does, then N
//                                  SET_PLAYBACK_RATE commands (2, 1, 2, …), each timed until
//                                  the MEDIA_STATUS carrying its requestId is read; prints
//                                  "p50_ms P p99_ms Q". What the rate benchmark's clients do,
//                                  less any client work beyond writing and finding the reply.
// No JSON parser and no protobuf library: frames are written and read by hand, so what it
// measures is process start, TLS and the receiver's own work.
#define _GNU_SOURCE
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static SSL *ssl;

static void die(const char *what) { fprintf(stderr, "tls-floor: %s\n", what); exit(1); }

static size_t put_varint(unsigned char *p, size_t v) {
    size_t n = 0;
    while (v >= 0x80) { p[n++] = (unsigned char)(v | 0x80); v >>= 7; }
    p[n++] = (unsigned char)v;
    return n;
}

static size_t put_string(unsigned char *p, unsigned char tag, const char *s) {
    size_t len = strlen(s), n = 0;
    p[n++] = tag;
    n += put_varint(p + n, len);
    memcpy(p + n, s, len);
    return n + len;
}

static void send_message(const char *dst, const char *ns, const char *json) {
    unsigned char body[4096];
    size_t n = 0;
    body[n++] = 0x08; body[n++] = 0x00;
    n += put_string(body + n, 0x12, "sender-floor");
    n += put_string(body + n, 0x1A, dst);
    n += put_string(body + n, 0x22, ns);
    body[n++] = 0x28; body[n++] = 0x00;
    n += put_string(body + n, 0x32, json);
    unsigned char frame[4100];
    frame[0] = (unsigned char)(n >> 24); frame[1] = (unsigned char)(n >> 16);
    frame[2] = (unsigned char)(n >> 8); frame[3] = (unsigned char)n;
    memcpy(frame + 4, body, n);
    if (SSL_write(ssl, frame, (int)(n + 4)) <= 0) die("write failed");
}

static void read_exact(unsigned char *p, size_t n) {
    while (n > 0) {
        int r = SSL_read(ssl, p, (int)n);
        if (r <= 0) die("the connection ended");
        p += r; n -= (size_t)r;
    }
}

static size_t body_len;

// Reads frames until one whose bytes contain `needle`; returns its body (static buffer, its
// length in body_len). The body is protobuf and holds NUL bytes: search it with find().
static const char *await_frame(const char *needle) {
    static unsigned char body[65537];
    for (;;) {
        unsigned char h[4];
        read_exact(h, 4);
        size_t n = (size_t)h[0] << 24 | (size_t)h[1] << 16 | (size_t)h[2] << 8 | h[3];
        if (n == 0 || n > 65536) die("bad frame");
        read_exact(body, n);
        body[n] = 0;
        body_len = n;
        if (memmem(body, n, needle, strlen(needle))) return (const char *)body;
    }
}

static const char *find(const char *body, const char *needle) {
    return memmem(body, body_len, needle, strlen(needle));
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 4) die("usage: tls-floor status HOST PORT | tls-floor ping|rate HOST PORT N");
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *ai;
    if (getaddrinfo(argv[2], argv[3], &hints, &ai) != 0) die("cannot resolve the address");
    int fd = socket(ai->ai_family, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) die("cannot connect");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);  // Cast devices present self-signed certificates
    ssl = SSL_new(ctx);
    SSL_set_fd(ssl, fd);
    if (SSL_connect(ssl) != 1) die("TLS handshake failed");
    const char *conn = "urn:x-cast:com.google.cast.tp.connection";
    const char *recv = "urn:x-cast:com.google.cast.receiver";
    send_message("receiver-0", conn, "{\"type\":\"CONNECT\"}");
    if (strcmp(argv[1], "ping") == 0) {
        int n = argc > 4 ? atoi(argv[4]) : 1000;
        double *s = malloc(sizeof(double) * (size_t)n);
        for (int i = 0; i < 50; i++) {  // warm-up
            send_message("receiver-0", "urn:x-cast:com.google.cast.tp.heartbeat", "{\"type\":\"PING\"}");
            await_frame("PONG");
        }
        for (int i = 0; i < n; i++) {
            double t0 = now_ms();
            send_message("receiver-0", "urn:x-cast:com.google.cast.tp.heartbeat", "{\"type\":\"PING\"}");
            await_frame("PONG");
            s[i] = now_ms() - t0;
        }
        qsort(s, (size_t)n, sizeof(double), cmp);
        printf("p50_ms %.4f p99_ms %.4f\n", s[n / 2], s[(int)(n * 0.99)]);
        return 0;
    }
    send_message("receiver-0", recv, "{\"type\":\"GET_STATUS\",\"requestId\":1}");
    const char *status = await_frame("RECEIVER_STATUS");
    const char *t = find(status, "\"transportId\":\"");
    if (t) {
        char transport[128];
        t += strlen("\"transportId\":\"");
        size_t len = strcspn(t, "\"");
        if (len >= sizeof transport) die("transport id too long");
        memcpy(transport, t, len);
        transport[len] = 0;
        send_message(transport, conn, "{\"type\":\"CONNECT\"}");
        send_message(transport, "urn:x-cast:com.google.cast.media", "{\"type\":\"GET_STATUS\",\"requestId\":2}");
        const char *media = await_frame("MEDIA_STATUS");
        if (strcmp(argv[1], "rate") == 0) {
            const char *m = find(media, "\"mediaSessionId\":");
            if (!m) die("nothing is playing: cast something first");
            long session = atol(m + strlen("\"mediaSessionId\":"));
            int n = argc > 4 ? atoi(argv[4]) : 1000;
            double *s = malloc(sizeof(double) * (size_t)n);
            char json[256], needle[64];
            for (int i = -50; i < n; i++) {  // the first 50 are warm-up
                int id = 100000 + i + 50;  // six digits: no id is a prefix of a later one
                snprintf(json, sizeof json,
                         "{\"type\":\"SET_PLAYBACK_RATE\",\"requestId\":%d,\"mediaSessionId\":%ld,\"playbackRate\":%d}",
                         id, session, (i & 1) ? 1 : 2);
                snprintf(needle, sizeof needle, "\"requestId\":%d", id);
                double t0 = now_ms();
                send_message(transport, "urn:x-cast:com.google.cast.media", json);
                await_frame(needle);
                if (i >= 0) s[i] = now_ms() - t0;
            }
            qsort(s, (size_t)n, sizeof(double), cmp);
            printf("p50_ms %.4f p99_ms %.4f\n", s[n / 2], s[(int)(n * 0.99)]);
            return 0;
        }
    } else if (strcmp(argv[1], "rate") == 0) {
        die("no app is running: cast something first");
    }
    puts(t ? "receiver and media status read" : "receiver status read");
    SSL_shutdown(ssl);
    return 0;
}
