package dev.cairn.service.auth;

/**
 * What verifying chunk and trailer signatures needs: the signing key, the request's signature
 * (the seed of the chain), its time and scope. Immutable; {@link #toString} hides the key.
 */
record ChunkSigningContext(byte[] signingKey, String seedSignature, String amzDate, String scope) {
    @Override
    public String toString() {
        return "ChunkSigningContext[" + amzDate + " " + scope + "]";
    }
}
