package dev.cairn.service.s3;

import java.nio.ByteBuffer;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * The rest of a body already in memory, written to Jetty as the response's last writes without
 * waiting: each slice is written when Jetty has taken the one before, from whichever thread Jetty
 * completes that write on. {@code done} runs once, with null when every byte is out, else with
 * why the connection failed (Jetty's idle timeout included), and the number of bytes the
 * connection took. The buffer must stay unchanged until then.
 */
final class SlicedWrite extends IteratingCallback {
    /**
     * The JDK passes a heap buffer to a socket through a temporary direct buffer of the size of
     * the call and keeps it for the thread: slices keep that at 64 KiB, as blocking writes do.
     */
    static final int SLICE = 64 * 1024;

    /** How a detached write ended: {@code failed} null when every byte is out. */
    interface Done {
        void ended(Throwable failed, long taken);
    }

    private final Response response;
    private final ByteBuffer rest;
    private final Done done;
    private final long length;
    /** The slice being written; Jetty advances its position as the socket takes its bytes. */
    private ByteBuffer slice;
    /** Bytes of the body before {@link #slice}. */
    private long sliceStart;
    private boolean lastWritten;

    private SlicedWrite(Response response, ByteBuffer rest, Done done) {
        this.response = response;
        this.rest = rest;
        this.done = done;
        this.length = rest.remaining();
    }

    /** Starts writing {@code rest}; a body of one slice goes in one write, without the iteration's state. */
    static void start(Response response, ByteBuffer rest, Done done) {
        int length = rest.remaining();
        if (length <= SLICE) {
            int start = rest.position();
            response.write(true, rest, Callback.from(() -> done.ended(null, length),
                    failed -> done.ended(failed, rest.position() - start)));
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
        sliceStart = length - rest.remaining();
        slice = rest.slice(rest.position(), n);
        rest.position(rest.position() + n);
        lastWritten = !rest.hasRemaining();
        response.write(lastWritten, slice, this);
        return Action.SCHEDULED;
    }

    @Override
    protected void onCompleteSuccess() {
        done.ended(null, length);
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        long taken = slice == null ? 0 : sliceStart + slice.position();
        done.ended(cause, taken);
    }
}
