package io.seqlink.bench;

import java.util.ArrayList;
import java.util.List;

/** A Markdown table whose columns are padded, so it reads on a terminal as well as rendered. */
final class MarkdownTable {

    private final List<String> header;
    private final boolean[] numeric;
    private final List<List<String>> rows = new ArrayList<>();

    /** Column names; a name starting with {@code >} is right-aligned (numbers), the marker is dropped. */
    MarkdownTable(String... columns) {
        header = new ArrayList<>();
        numeric = new boolean[columns.length];
        for (int i = 0; i < columns.length; i++) {
            numeric[i] = columns[i].startsWith(">");
            header.add(numeric[i] ? columns[i].substring(1) : columns[i]);
        }
    }

    MarkdownTable row(Object... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("row of " + cells.length + " cells for " + header.size() + " columns");
        }
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(c == null ? "-" : c.toString().replace("|", "\\|"));
        }
        rows.add(r);
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    @Override
    public String toString() {
        int[] width = new int[header.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = Math.max(3, header.get(i).length());
            for (List<String> r : rows) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, header, width);
        sb.append('|');
        for (int i = 0; i < width.length; i++) {
            sb.append(numeric[i] ? " " + "-".repeat(width[i] - 1) + ": |" : " " + "-".repeat(width[i]) + " |");
        }
        sb.append('\n');
        for (List<String> r : rows) {
            line(sb, r, width);
        }
        return sb.toString();
    }

    private void line(StringBuilder sb, List<String> cells, int[] width) {
        sb.append('|');
        for (int i = 0; i < width.length; i++) {
            String c = cells.get(i);
            String pad = " ".repeat(width[i] - c.length());
            sb.append(' ').append(numeric[i] ? pad + c : c + pad).append(" |");
        }
        sb.append('\n');
    }
}
