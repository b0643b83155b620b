package io.seqlink.bench;

import java.util.Locale;

/** Parsing and printing of byte sizes ({@code 64}, {@code 16K}, {@code 1MiB}) and durations ({@code 5s}, {@code 500ms}). */
final class Units {

    private Units() {
    }

    /** Bytes from {@code 64}, {@code 16K}, {@code 16KiB}, {@code 16KB}, {@code 1M}, {@code 2G}: binary multiples. */
    static long parseBytes(String flag, String text) {
        String t = text.trim();
        String upper = t.toUpperCase(Locale.ROOT);
        long unit = 1;
        String digits = upper;
        for (String[] suffix : new String[][] {{"KIB", "1024"}, {"MIB", "1048576"}, {"GIB", "1073741824"}, {"KB", "1024"},
                {"MB", "1048576"}, {"GB", "1073741824"}, {"K", "1024"}, {"M", "1048576"}, {"G", "1073741824"}, {"B", "1"}}) {
            if (upper.endsWith(suffix[0])) {
                unit = Long.parseLong(suffix[1]);
                digits = upper.substring(0, upper.length() - suffix[0].length()).trim();
                break;
            }
        }
        try {
            long n = Long.parseLong(digits);
            if (n < 1) {
                throw new BadOptionException(flag, "size '" + text + "' must be at least 1 byte", "give a positive size such as 64, 16K or 1M");
            }
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException ex) {
            throw new BadOptionException(flag, "'" + text + "' is not a size", "write sizes as 64, 16K, 16KiB or 1M (binary multiples)");
        }
    }

    /** Nanoseconds from {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1.5s}, or a bare number of seconds. */
    static long parseDurationNanos(String flag, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        double scale = 1e9;
        String digits = t;
        if (t.endsWith("ms")) {
            scale = 1e6;
            digits = t.substring(0, t.length() - 2);
        } else if (t.endsWith("us")) {
            scale = 1e3;
            digits = t.substring(0, t.length() - 2);
        } else if (t.endsWith("s")) {
            digits = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            scale = 60e9;
            digits = t.substring(0, t.length() - 1);
        }
        try {
            double v = Double.parseDouble(digits.trim());
            if (!(v > 0) || Double.isInfinite(v)) {
                throw new NumberFormatException();
            }
            return (long) (v * scale);
        } catch (NumberFormatException ex) {
            throw new BadOptionException(flag, "'" + text + "' is not a positive duration", "write a duration such as 30s, 500ms or 2m");
        }
    }

    /** {@code 64 B}, {@code 16 KiB}, {@code 1 MiB}; fractional sizes keep one decimal. */
    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%d %s", (long) v, units[u])
                : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** Short form for axis labels: {@code 64}, {@code 16K}, {@code 1M}. */
    static String shortBytes(long n) {
        if (n >= 1L << 30 && n % (1L << 30) == 0) {
            return (n >> 30) + "G";
        }
        if (n >= 1L << 20 && n % (1L << 20) == 0) {
            return (n >> 20) + "M";
        }
        if (n >= 1024 && n % 1024 == 0) {
            return (n >> 10) + "K";
        }
        return Long.toString(n);
    }

    /** A figure with 3 significant digits, or {@code -} when not measured. */
    static String fig(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        double a = Math.abs(v);
        if (a >= 1000 || a == 0) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    static String percent(double fraction) {
        return Double.isNaN(fraction) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
    }
}
