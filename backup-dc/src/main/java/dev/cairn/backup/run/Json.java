package dev.cairn.backup.run;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;

/** The one JSON mapper of the job's state files and reports. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private Json() {
    }

    public static byte[] write(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static <T> T read(byte[] bytes, Class<T> type, String what) throws IOException {
        try {
            return MAPPER.readValue(bytes, type);
        } catch (IOException e) {
            throw new IOException(what + ": unreadable (" + e.getMessage() + ")", e);
        }
    }
}
