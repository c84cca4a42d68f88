package dev.cairn.service.s3;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Writing S3 response XML and reading request XML. Parsing refuses DTDs and external
 * entities. Thread-safe: a builder per call.
 */
public final class Xml {
    public static final String S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";
    private static final String PROLOG = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

    private final StringBuilder out = new StringBuilder(512).append(PROLOG);
    private final List<String> open = new ArrayList<>();

    /** A document whose root element carries the S3 namespace. */
    public static Xml document(String root) {
        Xml x = new Xml();
        x.out.append('<').append(root).append(" xmlns=\"").append(S3_NAMESPACE).append("\">");
        x.open.add(root);
        return x;
    }

    /** A document whose root element has no namespace (errors). */
    public static Xml plainDocument(String root) {
        Xml x = new Xml();
        x.out.append('<').append(root).append('>');
        x.open.add(root);
        return x;
    }

    public Xml start(String name) {
        out.append('<').append(name).append('>');
        open.add(name);
        return this;
    }

    public Xml end() {
        out.append("</").append(open.remove(open.size() - 1)).append('>');
        return this;
    }

    /** An element with text; nothing when {@code value} is null. */
    public Xml element(String name, Object value) {
        if (value != null) {
            out.append('<').append(name).append('>');
            escape(String.valueOf(value));
            out.append("</").append(name).append('>');
        }
        return this;
    }

    /** Raw markup, already escaped. */
    public Xml raw(String markup) {
        out.append(markup);
        return this;
    }

    public byte[] toBytes() {
        while (!open.isEmpty()) {
            end();
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private void escape(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                case '\r' -> out.append("&#13;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t') {
                        out.append("&#").append((int) c).append(';');
                    } else {
                        out.append(c);
                    }
                }
            }
        }
    }

    /** Parses request XML; MalformedXML on any error. */
    public static Element parse(byte[] body) throws S3Exception {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            Document d = b.parse(new ByteArrayInputStream(body));
            return d.getDocumentElement();
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
    }

    /** Child elements of {@code parent} with this local name. */
    public static List<Element> children(Element parent, String localName) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && localName.equals(localNameOf(e))) {
                out.add(e);
            }
        }
        return out;
    }

    /** The text of the single child of this name, or null. */
    public static String childText(Element parent, String localName) {
        List<Element> c = children(parent, localName);
        return c.isEmpty() ? null : c.get(0).getTextContent();
    }

    public static String localNameOf(Element e) {
        return e.getLocalName() != null ? e.getLocalName() : e.getTagName();
    }
}
