package dev.cairn.service.s3;

import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * The rest of a body already in memory, written to Jetty as the response's last writes without
 * waiting: each slice is written when Jetty has taken the one before, from whichever thread Jetty
 * completes that write on. {@code done} runs once, with null when every byte is out, else with
 * why the connection failed (Jetty's idle timeout included). The buffer must stay unchanged until
 * then.
 */
final class SlicedWrite extends IteratingCallback {
    /**
     * The JDK passes a heap buffer to a socket through a temporary direct buffer of the size of
     * the call and keeps it for the thread: slices keep that at 64 KiB, as blocking writes do.
     */
    static final int SLICE = 64 * 1024;

    private final Response response;
    private final ByteBuffer rest;
    private final Consumer<Throwable> done;
    private boolean lastWritten;

    private SlicedWrite(Response response, ByteBuffer rest, Consumer<Throwable> done) {
        this.response = response;
        this.rest = rest;
        this.done = done;
    }

    /** Starts writing {@code rest}; a body of one slice goes in one write, without the iteration's state. */
    static void start(Response response, ByteBuffer rest, Consumer<Throwable> done) {
        if (rest.remaining() <= SLICE) {
            response.write(true, rest, Callback.from(() -> done.accept(null), done));
        } else {
            new SlicedWrite(response, rest, done).iterate();
        }
    }

    @Override
    protected Action process() {
        if (lastWritten) {
            return Action.SUCCEEDED;
        }
        int n = Math.min(SLICE, rest.remaining());
        ByteBuffer slice = rest.slice(rest.position(), n);
        rest.position(rest.position() + n);
        lastWritten = !rest.hasRemaining();
        response.write(lastWritten, slice, this);
        return Action.SCHEDULED;
    }

    @Override
    protected void onCompleteSuccess() {
        done.accept(null);
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        done.accept(cause);
    }
}
