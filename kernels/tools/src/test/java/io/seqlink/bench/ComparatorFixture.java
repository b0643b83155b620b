package io.seqlink.bench;

/**
 * A document in the format {@code seqlink-cycle-bench} prints (its header comment and the members its
 * modes write through nlohmann/json in {@code kernels/tools/src/main/cuda/}): one result of every mode,
 * including a degenerate figure, which nlohmann/json writes as {@code null}.
 */
final class ComparatorFixture {

    static final String DOCUMENT = """
            {"tool":"seqlink-cycle-bench","version":1,
              "config":{"mode":"all","frames":2000,"warmup":200,"duration_s":0.500,"slots":64,"threads":256,"packet_bytes":64},
              "device":{"producer":0,"consumer":0,"producer_name":"NVIDIA H200","consumer_name":"NVIDIA H200","devices":1,"driver":"13.0","runtime":"12.6","same_device":true,"peer_access":true,"topology":"producer and consumer on two streams of one GPU"},
              "ok":true,
              "results":[
                {"mode":"cycle","frame_bytes":16384,"frames":2000,"latency_us":{"p50":33.510,"p90":38.000,"p99":43.560,"p999":60.125,"mean":34.000,"min":29.000,"max":80.000},"verified":2000,"corrupt":0},
                {"mode":"wait-value","frame_bytes":16384,"frames":2000,"latency_us":{"p50":33.800,"p90":36.000,"p99":41.110,"p999":50.000,"mean":34.100,"min":30.000,"max":70.000},"verified":2000,"corrupt":0},
                {"mode":"throughput","frame_bytes":16384,"frames":8000,"seconds":0.1092,"frames_per_s":73260.1,"gb_per_s":1.200,"verified":1024,"corrupt":0},
                {"mode":"memcpy-peer","frame_bytes":16384,"frames":2000,"latency_us":{"p50":9.400,"p90":10.000,"p99":16.900,"p999":20.000,"mean":9.600,"min":8.000,"max":30.000},"gb_per_s":4.000,"verified":1,"corrupt":0},
                {"mode":"scheme","scheme":"lock-free-counter","slots":1,"threads":256,"packet_bytes":64,"seconds":2.0000,"rounds":234602,"rounds_published":234602,"gb_per_s":1.9219,"latency_us":{"p50":4.096,"p99":4.608,"p999":4.608},"remote_reads_per_round":2060.00,"timeouts":0,"producer_timeouts":0,"consumer_timeouts":0,"corrupt":0,"topology":"two streams of one GPU (globaltimer latencies exact)"},
                {"mode":"scheme","scheme":"mutex-spin","slots":1,"threads":256,"packet_bytes":64,"seconds":2.0000,"rounds":0,"rounds_published":0,"gb_per_s":null,"latency_us":{"p50":0.000,"p99":0.000,"p999":0.000},"remote_reads_per_round":0.00,"timeouts":2,"producer_timeouts":1,"consumer_timeouts":1,"corrupt":0,"topology":"two streams of one GPU (globaltimer latencies exact)"},
                {"mode":"sanitize","check":"cycle","ok":true,"detail":"64 B x 12 frames, 0 corrupt"}
              ]}
            """;

    /**
     * Verbatim lines of the comparator's output on one H200 (2026-11-29, run 1 of docs/gpu-results.md,
     * {@code --mode all --short}): the 16 KiB results and a scheme, the header as printed.
     */
    static final String H200_EXCERPT = """
            {"tool":"seqlink-cycle-bench","version":1,
              "config":{"mode":"all","frames":2000,"warmup":200,"duration_s":0.500,"slots":64,"threads":256,"packet_bytes":64},
              "device":{"producer":0,"consumer":0,"producer_name":"NVIDIA H200","consumer_name":"NVIDIA H200","devices":1,"driver":"13.0","runtime":"13.0","same_device":true,"peer_access":true,"topology":"producer and consumer on two streams of one GPU"},
              "ok":true,
              "results":[
                {"mode":"cycle","frame_bytes":16384,"frames":2000,"latency_us":{"p50":33.196,"p90":35.681,"p99":42.987,"p999":53.214,"mean":33.711,"min":30.346,"max":68.250},"verified":2000,"corrupt":0},
                {"mode":"wait-value","frame_bytes":16384,"frames":2000,"latency_us":{"p50":33.792,"p90":35.073,"p99":43.245,"p999":54.301,"mean":34.132,"min":31.910,"max":80.566},"verified":2000,"corrupt":0},
                {"mode":"throughput","frame_bytes":16384,"frames":8000,"seconds":0.1133,"frames_per_s":70586.7,"gb_per_s":1.156,"verified":1024,"corrupt":0},
                {"mode":"memcpy-peer","frame_bytes":16384,"frames":2000,"latency_us":{"p50":8.828,"p90":9.862,"p99":14.579,"p999":23.814,"mean":9.075,"min":7.688,"max":32.119},"gb_per_s":4.711,"verified":1,"corrupt":0},
                {"mode":"scheme","scheme":"counter-double-buffer","slots":2,"threads":256,"packet_bytes":64,"seconds":0.5000,"rounds":94103,"gb_per_s":3.0835,"latency_us":{"p50":6.144,"p99":6.144,"p999":6.144},"remote_reads_per_round":2049.00,"timeouts":0,"corrupt":0,"topology":"two streams of one GPU (globaltimer latencies exact)"}
              ]}
            """;

    private ComparatorFixture() {
    }

    /**
     * Version 2 (the fast-path comparator), excerpt of the H200 run of 2026-12-01 (docs/benchmarks/2026-12-01-h200-fastpath):
     * rows carry a "kind"; the channel's rows and one of the new ones.
     */
    static final String V2_EXCERPT = """
            {"tool":"seqlink-cycle-bench","version":2,
              "config":{"mode":"all","frames":20000,"warmup":1000,"duration_s":2.000,"slots":64,"depth":4,"batch":16,"threads":256,"packet_bytes":64},
              "device":{"producer":0,"consumer":0,"producer_name":"NVIDIA H200","consumer_name":"NVIDIA H200","devices":1,"driver":"13.0","runtime":"13.0","same_device":true,"peer_access":true,"topology":"producer and consumer on two streams of one GPU"},
              "ok":true,
              "results":[
                {"mode":"channel","kind":"latency","frame_bytes":16384,"frames":20000,"latency_us":{"p50":31.532,"p90":34.604,"p99":43.839,"p999":56.138,"mean":32.069,"min":27.254,"max":79.156},"verified":20000,"corrupt":0},
                {"mode":"floor","kind":"latency","frame_bytes":16384,"frames":20000,"latency_us":{"p50":19.672,"p90":20.998,"p99":24.408,"p999":32.293,"mean":19.888,"min":17.934,"max":145.138},"verified":20000,"corrupt":0},
                {"mode":"channel","kind":"throughput","frame_bytes":16384,"frames":80000,"batch":1,"seconds":0.8951,"frames_per_s":89372.4,"gb_per_s":1.464,"verified":1024,"corrupt":0},
                {"mode":"cancel","armed_rounds":4,"repeats":200,"hung":0,"ok":true}
              ]}
            """;
}
