package dev.cairn.service.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.service.s3.S3Exception;
import dev.cairn.service.s3.Xml;
import java.nio.charset.StandardCharsets;
import org.w3c.dom.Element;

/**
 * Request XML (DeleteObjects, CompleteMultipartUpload, AccessControlPolicy): any body parses or is
 * refused as MalformedXML; a DTD, and so any entity, is refused; and what the service writes into
 * XML reads back as written.
 */
class XmlBodyFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void parse(byte[] body) {
        String text = new String(body, StandardCharsets.ISO_8859_1);
        Element root;
        try {
            root = Xml.parse(body);
        } catch (S3Exception refused) {
            assertEquals("MalformedXML", refused.code());
            assertEquals(400, refused.status());
            roundTrip(new String(body, StandardCharsets.UTF_8));
            return;
        }
        assertFalse(text.contains("<!DOCTYPE") || text.contains("<!ENTITY"), "a DTD was accepted: " + text);
        walk(root, 0);
        roundTrip(new String(body, StandardCharsets.UTF_8));
    }

    /** Reads every element the handlers read, at any depth. */
    private static void walk(Element e, int depth) {
        Xml.localNameOf(e);
        for (String name : new String[] {"Object", "Key", "VersionId", "Quiet", "Part", "PartNumber", "ETag",
            "AccessControlList", "Grant", "Grantee", "Permission", "URI", "ID"}) {
            Xml.childText(e, name);
            if (depth < 4) {
                for (Element child : Xml.children(e, name)) {
                    walk(child, depth + 1);
                }
            }
        }
    }

    /** Text the service writes (keys, ETags, messages) reads back unchanged when XML 1.0 can carry it. */
    private static void roundTrip(String value) {
        if (!isXmlText(value)) {
            return;
        }
        byte[] doc = Xml.document("DeleteResult").start("Deleted").element("Key", value).end().toBytes();
        try {
            Element root = Xml.parse(doc);
            String back = Xml.childText(Xml.children(root, "Deleted").get(0), "Key");
            assertEquals(value.replace("\r\n", "\n"), back.replace("\r\n", "\n"), "XML text round trip");
        } catch (S3Exception e) {
            throw new AssertionError("the service wrote XML it cannot read back, for " + value, e);
        }
    }

    /** The characters XML 1.0 allows, so that a document can hold the value at all. */
    static boolean isXmlText(String s) {
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            boolean allowed = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
                    || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
            if (!allowed) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }
}
