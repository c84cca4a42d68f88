package dev.cairn.backup.restore;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import software.amazon.awssdk.services.s3.model.CORSRule;

/**
 * A bucket's CORS document as the archive holds it (the {@code CORSConfiguration} XML GetBucketCors
 * answers, docs/format/backup-archive.md) read into the SDK's rules, so a restore into S3 sends
 * it as PutBucketCors. Stateless; thread-safe.
 */
final class CorsDocuments {
    private CorsDocuments() {
    }

    static List<CORSRule> rules(String document) throws IOException {
        Element root;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            root = f.newDocumentBuilder().parse(new ByteArrayInputStream(document.getBytes(StandardCharsets.UTF_8)))
                    .getDocumentElement();
        } catch (Exception e) {
            throw new IOException("a bucket's CORS document does not parse: " + e.getMessage(), e);
        }
        List<CORSRule> rules = new ArrayList<>();
        for (Element rule : children(root)) {
            CORSRule.Builder b = CORSRule.builder();
            List<String> origins = new ArrayList<>();
            List<String> methods = new ArrayList<>();
            List<String> allowed = new ArrayList<>();
            List<String> exposed = new ArrayList<>();
            for (Element e : children(rule)) {
                String v = e.getTextContent();
                switch (e.getLocalName()) {
                    case "ID" -> b.id(v);
                    case "AllowedOrigin" -> origins.add(v);
                    case "AllowedMethod" -> methods.add(v);
                    case "AllowedHeader" -> allowed.add(v);
                    case "ExposeHeader" -> exposed.add(v);
                    case "MaxAgeSeconds" -> b.maxAgeSeconds(Integer.parseInt(v.trim()));
                    default -> throw new IOException("a bucket's CORS document has an unknown element " + e.getLocalName());
                }
            }
            rules.add(b.allowedOrigins(origins).allowedMethods(methods).allowedHeaders(allowed).exposeHeaders(exposed).build());
        }
        return rules;
    }

    private static List<Element> children(Element parent) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                out.add(e);
            }
        }
        return out;
    }
}
