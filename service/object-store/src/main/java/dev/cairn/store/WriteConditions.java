package dev.cairn.store;

/** The conditions of a write on the object it replaces, shared by the stores that check them atomically. Stateless; thread-safe. */
public final class WriteConditions {

    private WriteConditions() {
    }

    /**
     * PRECONDITION_FAILED when {@code onlyIfAbsent} and an object exists, or when its ETag is not
     * {@code expectedEtag} ({@code *}: any); NO_SUCH_KEY when an ETag is expected and none exists.
     */
    public static void check(String key, ObjectInfo current, boolean onlyIfAbsent, String expectedEtag) throws StoreException {
        if (onlyIfAbsent && current != null) {
            throw new StoreException(StoreException.Reason.PRECONDITION_FAILED, key + " exists");
        }
        if (expectedEtag == null) {
            return;
        }
        if (current == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_KEY, key);
        }
        if (!expectedEtag.equals("*") && !expectedEtag.equals(current.etag())) {
            throw new StoreException(StoreException.Reason.PRECONDITION_FAILED, key + " has another ETag");
        }
    }
}
