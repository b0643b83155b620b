package io.seqlink.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A small JSON writer and parser, so the harness needs no library on the GPU host's classpath.
 * Values are {@link Map} (insertion-ordered), {@link List}, {@link String}, {@link Number},
 * {@link Boolean} and {@code null}.
 *
 * <p>The parser is strict RFC 8259, with one opt-in leniency: the C++ comparator prints numbers
 * with {@code printf("%f")}, which writes {@code nan} or {@code inf} for a degenerate value; with
 * {@code lenient} those read as {@link Double#NaN} and infinities instead of failing the whole run.
 */
public final class Json {

    private Json() {
    }

    // ---- writing --------------------------------------------------------------------------------

    /** The value as indented JSON. Non-finite doubles are written as {@code null} (JSON has no NaN). */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value, 0);
        return sb.append('\n').toString();
    }

    private static void write(StringBuilder sb, Object v, int indent) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            quote(sb, s);
        } else if (v instanceof Boolean b) {
            sb.append(b);
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            sb.append(Double.isFinite(d) ? number(d) : "null");
        } else if (v instanceof Number n) {
            sb.append(n.longValue());
        } else if (v instanceof Map<?, ?> m) {
            writeObject(sb, m, indent);
        } else if (v instanceof List<?> l) {
            writeArray(sb, l, indent);
        } else {
            quote(sb, v.toString());
        }
    }

    private static void writeObject(StringBuilder sb, Map<?, ?> m, int indent) {
        if (m.isEmpty()) {
            sb.append("{}");
            return;
        }
        sb.append("{\n");
        int i = 0;
        for (Map.Entry<?, ?> e : m.entrySet()) {
            pad(sb, indent + 1);
            quote(sb, String.valueOf(e.getKey()));
            sb.append(": ");
            write(sb, e.getValue(), indent + 1);
            sb.append(++i < m.size() ? ",\n" : "\n");
        }
        pad(sb, indent);
        sb.append('}');
    }

    private static void writeArray(StringBuilder sb, List<?> l, int indent) {
        if (l.isEmpty()) {
            sb.append("[]");
            return;
        }
        boolean scalars = l.stream().noneMatch(x -> x instanceof Map || x instanceof List);
        if (scalars) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                write(sb, l.get(i), indent);
            }
            sb.append(']');
            return;
        }
        sb.append("[\n");
        for (int i = 0; i < l.size(); i++) {
            pad(sb, indent + 1);
            write(sb, l.get(i), indent + 1);
            sb.append(i + 1 < l.size() ? ",\n" : "\n");
        }
        pad(sb, indent);
        sb.append(']');
    }

    /** Up to 6 significant decimals without exponent noise for ordinary benchmark figures. */
    private static String number(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        String s = String.format(Locale.ROOT, "%.6g", d);
        if (s.contains("e") || s.contains("E")) {
            return s;
        }
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "");
            if (s.endsWith(".")) {
                s = s.substring(0, s.length() - 1);
            }
        }
        return s;
    }

    private static void pad(StringBuilder sb, int indent) {
        for (int i = 0; i < indent; i++) {
            sb.append("  ");
        }
    }

    static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    // ---- parsing --------------------------------------------------------------------------------

    /** Parses strict JSON. */
    public static Object parse(String text) {
        return parse(text, false);
    }

    /** Parses JSON; with {@code lenient}, bare {@code nan}, {@code inf}, {@code -nan}, {@code -inf} are numbers. */
    public static Object parse(String text, boolean lenient) {
        Parser p = new Parser(text, lenient);
        p.skipSpace();
        Object v = p.value();
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("unexpected text after the JSON value");
        }
        return v;
    }

    /** A JSON document that does not parse; the message names the offset and what was expected. */
    public static final class ParseException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        ParseException(String message) {
            super(message);
        }
    }

    private static final class Parser {
        private final String s;
        private final boolean lenient;
        private int pos;

        Parser(String s, boolean lenient) {
            this.s = s;
            this.lenient = lenient;
        }

        ParseException error(String what) {
            int from = Math.max(0, pos - 20);
            int to = Math.min(s.length(), pos + 20);
            return new ParseException("JSON: " + what + " at offset " + pos + " near '" + s.substring(from, to) + "'");
        }

        void skipSpace() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                    pos++;
                } else {
                    break;
                }
            }
        }

        Object value() {
            if (pos >= s.length()) {
                throw error("unexpected end of input");
            }
            char c = s.charAt(pos);
            return switch (c) {
                case '{' -> object();
                case '[' -> array();
                case '"' -> string();
                case 't' -> literal("true", Boolean.TRUE);
                case 'f' -> literal("false", Boolean.FALSE);
                case 'n' -> lenient && s.startsWith("nan", pos) ? literal("nan", Double.NaN) : literal("null", null);
                case 'i' -> lenientLiteral("inf", Double.POSITIVE_INFINITY);
                default -> {
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        yield number();
                    }
                    throw error("expected a value");
                }
            };
        }

        private Object lenientLiteral(String word, double value) {
            if (!lenient) {
                throw error("expected a value");
            }
            return literal(word, value);
        }

        private Object literal(String word, Object value) {
            if (!s.startsWith(word, pos)) {
                throw error("expected '" + word + "'");
            }
            pos += word.length();
            return value;
        }

        private Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            pos++;
            skipSpace();
            if (peek() == '}') {
                pos++;
                return m;
            }
            while (true) {
                skipSpace();
                if (peek() != '"') {
                    throw error("expected a member name in quotes");
                }
                String key = string();
                skipSpace();
                expect(':');
                skipSpace();
                m.put(key, value());
                skipSpace();
                char c = next();
                if (c == '}') {
                    return m;
                }
                if (c != ',') {
                    pos--;
                    throw error("expected ',' or '}'");
                }
            }
        }

        private List<Object> array() {
            List<Object> l = new ArrayList<>();
            pos++;
            skipSpace();
            if (peek() == ']') {
                pos++;
                return l;
            }
            while (true) {
                skipSpace();
                l.add(value());
                skipSpace();
                char c = next();
                if (c == ']') {
                    return l;
                }
                if (c != ',') {
                    pos--;
                    throw error("expected ',' or ']'");
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c < 0x20) {
                    pos--;
                    throw error("control character in a string");
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("short \\u escape");
                        }
                        try {
                            sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException ex) {
                            throw error("bad \\u escape");
                        }
                        pos += 4;
                    }
                    default -> {
                        pos--;
                        throw error("bad escape '\\" + e + "'");
                    }
                }
            }
        }

        private Object number() {
            int start = pos;
            if (peek() == '-') {
                pos++;
                if (lenient && (s.startsWith("nan", pos) || s.startsWith("inf", pos))) {
                    boolean nan = s.startsWith("nan", pos);
                    pos += 3;
                    return nan ? Double.NaN : Double.NEGATIVE_INFINITY;
                }
            }
            if (peek() == '0') {
                pos++;
            } else if (isDigit(peek())) {
                while (isDigit(peek())) {
                    pos++;
                }
            } else {
                throw error("expected a digit");
            }
            boolean integral = true;
            if (peek() == '.') {
                integral = false;
                pos++;
                if (!isDigit(peek())) {
                    throw error("expected a digit after '.'");
                }
                while (isDigit(peek())) {
                    pos++;
                }
            }
            if (peek() == 'e' || peek() == 'E') {
                integral = false;
                pos++;
                if (peek() == '+' || peek() == '-') {
                    pos++;
                }
                if (!isDigit(peek())) {
                    throw error("expected a digit in the exponent");
                }
                while (isDigit(peek())) {
                    pos++;
                }
            }
            String text = s.substring(start, pos);
            if (integral) {
                try {
                    return Long.parseLong(text);
                } catch (NumberFormatException tooBig) {
                    return Double.parseDouble(text);
                }
            }
            return Double.parseDouble(text);
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private char peek() {
            return pos < s.length() ? s.charAt(pos) : '\0';
        }

        private char next() {
            if (pos >= s.length()) {
                throw error("unexpected end of input");
            }
            return s.charAt(pos++);
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }
    }

    // ---- reading helpers --------------------------------------------------------------------------

    /** The member {@code key} of an object as a map, or an empty map. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object parent, String key) {
        if (parent instanceof Map<?, ?> m && m.get(key) instanceof Map<?, ?> child) {
            return (Map<String, Object>) child;
        }
        return Map.of();
    }

    /** The member {@code key} of an object as a list, or an empty list. */
    @SuppressWarnings("unchecked")
    static List<Object> array(Object parent, String key) {
        if (parent instanceof Map<?, ?> m && m.get(key) instanceof List<?> child) {
            return (List<Object>) child;
        }
        return List.of();
    }

    /** The member {@code key} as a double, or NaN when absent or not a number. */
    static double number(Map<String, Object> m, String key) {
        return m.get(key) instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** The member {@code key} as a long, or {@code fallback}. */
    static long integer(Map<String, Object> m, String key, long fallback) {
        return m.get(key) instanceof Number n ? n.longValue() : fallback;
    }

    /** The member {@code key} as a string, or {@code fallback}. */
    static String text(Map<String, Object> m, String key, String fallback) {
        Object v = m.get(key);
        return v == null ? fallback : v.toString();
    }
}
