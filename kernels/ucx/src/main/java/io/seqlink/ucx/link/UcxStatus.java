package io.seqlink.ucx.link;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import org.openucx.jucx.ucs.UcsConstants;

/** UCX status codes by name ({@code UCS_ERR_NOT_CONNECTED}), for messages. Safe from any thread. */
final class UcxStatus {

    private static final Map<Integer, String> NAMES = names();

    private UcxStatus() {
    }

    static String name(int status) {
        return NAMES.getOrDefault(status, "UCX status " + status);
    }

    private static Map<Integer, String> names() {
        Map<Integer, String> names = new HashMap<>();
        for (Field f : UcsConstants.STATUS.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                try {
                    names.putIfAbsent(f.getInt(null), f.getName());
                } catch (IllegalAccessException e) {
                    // public fields: not reached
                }
            }
        }
        return Map.copyOf(names);
    }
}
