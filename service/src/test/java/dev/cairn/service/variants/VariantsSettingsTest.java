package dev.cairn.service.variants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.service.config.CairnProperties;
import dev.cairn.service.config.InvalidSettingException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** cairn.variants.* as Spring binds them: presets added beside the defaults, bad presets refused at startup. */
class VariantsSettingsTest {
    private static CairnProperties bind(Map<String, String> settings) {
        CairnProperties p = new CairnProperties();
        new Binder(new MapConfigurationPropertySource(settings)).bind("cairn", Bindable.ofInstance(p));
        return p;
    }

    @Test
    void aConfiguredPresetJoinsTheDefaults() {
        CairnProperties p = bind(Map.of("cairn.variants.presets.square", "w=100&h=100&fit=crop",
                "cairn.variants.secure-token", "t", "cairn.variants.unsigned-preset-buckets", "photos,icons"));
        p.validate();
        assertEquals("w=100&h=100&fit=crop", p.getVariants().getPresets().get("square"));
        assertEquals("w=160&h=160&fit=crop", p.getVariants().getPresets().get("thumb"));
        assertEquals(java.util.List.of("photos", "icons"), p.getVariants().getUnsignedPresetBuckets());
        new VariantAccess(p.getVariants());
    }

    @Test
    void badSettingsAreRefusedByName() {
        assertThrows(InvalidSettingException.class,
                () -> bind(Map.of("cairn.variants.max-concurrent-renders", "0")).validate());
        InvalidSettingException e = assertThrows(InvalidSettingException.class,
                () -> new VariantAccess(bind(Map.of("cairn.variants.presets.huge", "w=99999")).getVariants()));
        assertEquals(true, e.getMessage().startsWith("invalid setting: cairn.variants.presets.huge: w"), e.getMessage());
    }
}
