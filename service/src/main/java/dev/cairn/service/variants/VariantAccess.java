package dev.cairn.service.variants;

import dev.cairn.service.config.VariantsProperties;
import dev.cairn.service.s3.S3Error;
import dev.cairn.service.s3.S3Exception;
import dev.cairn.service.s3.S3Request;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Who may ask for which variant: any options when signed the imgix way with the secure token;
 * without a signature only a named preset ({@code ?preset=thumb}, plus {@code auto}) of an object
 * in a bucket that allows unsigned presets, so nobody can make the server render arbitrary sizes.
 * Everything else is 403 AccessDenied. This comes on top of the source's own authorisation (the
 * request may read the object, as for a GET of it). Immutable; thread-safe.
 */
final class VariantAccess {
    private final String token;
    private final Map<String, Map<String, String>> presets = new HashMap<>();
    private final Set<String> unsignedPresetBuckets;
    private final int maxDimension;

    VariantAccess(VariantsProperties p) {
        this.token = p.getSecureToken();
        this.unsignedPresetBuckets = Set.copyOf(p.getUnsignedPresetBuckets());
        this.maxDimension = p.getMaxOutputDimension();
        for (Map.Entry<String, String> e : p.getPresets().entrySet()) {
            Map<String, String> params = new HashMap<>();
            for (String pair : e.getValue().split("&")) {
                int eq = pair.indexOf('=');
                params.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
            }
            try {
                VariantOptions.parse(params::get, maxDimension);
            } catch (S3Exception ex) {
                throw new dev.cairn.service.config.InvalidSettingException(
                        "invalid setting: cairn.variants.presets." + e.getKey() + ": " + ex.getMessage());
            }
            presets.put(e.getKey(), Map.copyOf(params));
        }
    }

    /** The options the request may have rendered; 403 or 400 (bad options) otherwise. */
    VariantOptions options(S3Request r) throws S3Exception {
        String presetName = r.param("preset");
        Map<String, String> preset = null;
        if (presetName != null) {
            preset = presets.get(presetName);
            if (preset == null) {
                throw VariantOptions.invalid("no preset is named '" + presetName + "'");
            }
        }
        boolean unsigned = preset != null && r.bucket() != null && unsignedPresetBuckets.contains(r.bucket());
        if (!unsigned && !ImgixSignature.verify(token, r.rawPath(), r.rawQuery())) {
            throw new S3Exception(S3Error.ACCESS_DENIED.code(), S3Error.ACCESS_DENIED.status(), token == null
                    ? "Variants other than unsigned presets are off: no secure token is set"
                    : "The variant's signature (s) is missing or does not match");
        }
        if (preset == null) {
            return VariantOptions.parse(r::param, maxDimension);
        }
        Map<String, String> chosen = preset;
        return VariantOptions.parse(name -> name.equals("auto") ? r.param("auto") : chosen.get(name), maxDimension);
    }
}
