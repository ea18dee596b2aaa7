// SPDX-License-Identifier: Apache-2.0
package io.simdbridge.bench.jmh;

import io.simdbridge.Bridge;
import io.simdbridge.NativeParser;
import io.simdbridge.PaddedBuffers;
import io.simdbridge.bench.data.Datasets;
import io.simdbridge.bench.engines.JacksonStreamEngine;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Suite G: what it costs to get the bytes where each engine reads them. The document arrives
 * from a file, or from a socket on loopback (a persistent connection; each operation asks for
 * the document and receives it length-prefixed). A heap path reads it into a reused, padded
 * byte[]; a direct path reads it from the channel into a reused, padded direct buffer; Jackson
 * reads the InputStream itself. Each operation is the acquisition and the checksum.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector",
        "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 2, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 6, time = 200, timeUnit = TimeUnit.MILLISECONDS)
public class AcquisitionBenchmark {
    @Param({"file", "socket"})
    public String source;

    @Param({"twitter.json"})
    public String dataset;

    private byte[] bytes;
    private Path file;
    private byte[] heap;
    private ByteBuffer direct;
    private ServerSocketChannel server;
    private Thread serverThread;
    private SocketChannel client;
    private DataInputStream clientIn;
    private final ByteBuffer request = ByteBuffer.allocateDirect(1);
    private final ByteBuffer lengthPrefix = ByteBuffer.allocateDirect(4);
    private final JacksonStreamEngine jackson = new JacksonStreamEngine();
    private long expected;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        bytes = Datasets.load(dataset).bytes();
        heap = new byte[bytes.length + PaddedBuffers.PADDING];
        direct = PaddedBuffers.allocateDirect(bytes.length);
        file = Files.createTempFile("simdbridge-acquisition-", ".json");
        Files.write(file, bytes);
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        serverThread = new Thread(this::serve, "acquisition-server");
        serverThread.setDaemon(true);
        serverThread.start();
        client = SocketChannel.open(server.getLocalAddress());
        clientIn = new DataInputStream(client.socket().getInputStream());
        expected = NativeParser.forCurrentThread().checksum(PaddedBuffers.padded(bytes), 0, bytes.length, Bridge.FFM_HEAP);
        for (long h : new long[] {heap_ffmHeap(), heap_jniCopy(), direct_jniDirect(), direct_ffmDirect(), stream_jacksonStream()}) {
            if (h != expected) {
                throw new IllegalStateException("an acquisition path disagrees: nothing is measured");
            }
        }
    }

    /** Answers each one-byte request with the document, length-prefixed. */
    private void serve() {
        try (SocketChannel s = server.accept()) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ByteBuffer message = ByteBuffer.allocateDirect(4 + bytes.length).putInt(bytes.length).put(bytes);
            while (true) {
                one.clear();
                if (s.read(one) < 0) {
                    return;
                }
                message.clear(); // the whole message again: [length][document]
                while (message.hasRemaining()) {
                    s.write(message);
                }
            }
        } catch (IOException e) {
            // the benchmark ended
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        client.close();
        server.close();
        Files.deleteIfExists(file);
    }

    /** The document's length, after asking the socket for it; the bytes follow. */
    private int requestDocument() throws IOException {
        request.clear();
        client.write(request.put(0, (byte) 1));
        return clientIn.readInt();
    }

    private int readHeap() {
        try {
            if (source.equals("file")) {
                try (InputStream in = Files.newInputStream(file)) {
                    return in.readNBytes(heap, 0, bytes.length);
                }
            }
            int length = requestDocument();
            clientIn.readFully(heap, 0, length);
            return length;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ByteBuffer readDirect() {
        try {
            direct.clear().limit(bytes.length);
            if (source.equals("file")) {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                    while (direct.hasRemaining() && channel.read(direct) >= 0) {
                        // read until full
                    }
                }
            } else {
                direct.limit(requestDocument());
                while (direct.hasRemaining()) {
                    client.read(direct);
                }
            }
            return direct.flip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Benchmark
    public long heap_ffmHeap() {
        int n = readHeap();
        return NativeParser.forCurrentThread().checksum(heap, 0, n, Bridge.FFM_HEAP);
    }

    @Benchmark
    public long heap_jniCopy() {
        int n = readHeap();
        return NativeParser.forCurrentThread().checksum(heap, 0, n, Bridge.JNI_COPY);
    }

    @Benchmark
    public long direct_jniDirect() {
        return NativeParser.forCurrentThread().checksum(readDirect(), Bridge.JNI_DIRECT);
    }

    @Benchmark
    public long direct_ffmDirect() {
        return NativeParser.forCurrentThread().checksum(readDirect(), Bridge.FFM_DIRECT);
    }

    @Benchmark
    public long stream_jacksonStream() {
        try {
            if (source.equals("file")) {
                try (InputStream in = Files.newInputStream(file)) {
                    return jackson.checksum(in);
                }
            }
            int length = requestDocument();
            return jackson.checksum(new BoundedInputStream(clientIn, length));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The next `remaining` bytes of a stream, then its end (Jackson reads to the end). */
    private static final class BoundedInputStream extends InputStream {
        private final InputStream in;
        private int remaining;

        BoundedInputStream(InputStream in, int remaining) {
            this.in = in;
            this.remaining = remaining;
        }

        @Override
        public int read() throws IOException {
            if (remaining == 0) {
                return -1;
            }
            int b = in.read();
            if (b >= 0) {
                remaining--;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (remaining == 0) {
                return -1;
            }
            int n = in.read(b, off, Math.min(len, remaining));
            if (n > 0) {
                remaining -= n;
            }
            return n;
        }
    }
}
