package dev.prism.internal.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which node SLURM gave each task of a step, worked out from the step's environment
 * ({@code SLURM_STEP_NODELIST}, {@code SLURM_STEP_TASKS_PER_NODE}, {@code SLURM_DISTRIBUTION}) for the
 * block and cyclic distributions: how rank 0 names the node of a rank that never reached it.
 * An arbitrary distribution (a host file, {@code -m arbitrary}) is not derivable, and gives nothing.
 */
public final class SlurmLayout {
    private SlurmLayout() {
    }

    /** @return the node of {@code rank}, when the step's layout can be worked out from {@code env} */
    public static Optional<String> nodeOf(int rank, Map<String, String> env) {
        String list = env.getOrDefault("SLURM_STEP_NODELIST", "");
        String perNode = env.getOrDefault("SLURM_STEP_TASKS_PER_NODE", "");
        String distribution = env.getOrDefault("SLURM_DISTRIBUTION", "block");
        if (list.isBlank() || perNode.isBlank() || rank < 0) {
            return Optional.empty();
        }
        try {
            List<String> hosts = hosts(list);
            List<Integer> tasks = tasksPerNode(perNode);
            if (hosts.size() != tasks.size()) {
                return Optional.empty();
            }
            if (distribution.startsWith("block")) {
                int first = 0;
                for (int n = 0; n < hosts.size(); n++) {
                    if (rank < first + tasks.get(n)) {
                        return Optional.of(hosts.get(n));
                    }
                    first += tasks.get(n);
                }
            } else if (distribution.startsWith("cyclic")) {
                int[] left = tasks.stream().mapToInt(Integer::intValue).toArray();
                int next = 0;
                while (true) {
                    boolean any = false;
                    for (int n = 0; n < hosts.size(); n++) {
                        if (left[n] > 0) {
                            any = true;
                            left[n]--;
                            if (next++ == rank) {
                                return Optional.of(hosts.get(n));
                            }
                        }
                    }
                    if (!any) {
                        break;
                    }
                }
            }
        } catch (RuntimeException e) {
            // a form this parser does not know: no node rather than a wrong one
        }
        return Optional.empty();
    }

    /** @return a SLURM host list expanded: {@code n[1-3,7],gpu01} → n1, n2, n3, n7, gpu01 (zero padding kept) */
    public static List<String> hosts(String hostList) {
        List<String> hosts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        String text = hostList.trim();
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ',';
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                expand(text.substring(start, i), hosts);
                start = i + 1;
            }
        }
        return hosts;
    }

    private static void expand(String item, List<String> hosts) {
        int open = item.indexOf('[');
        if (open < 0) {
            if (!item.isEmpty()) {
                hosts.add(item);
            }
            return;
        }
        int close = item.indexOf(']', open);
        String prefix = item.substring(0, open);
        String suffix = item.substring(close + 1);
        for (String range : item.substring(open + 1, close).split(",")) {
            String[] ends = range.split("-");
            int from = Integer.parseInt(ends[0]);
            int to = ends.length > 1 ? Integer.parseInt(ends[1]) : from;
            for (int n = from; n <= to; n++) {
                String digits = String.valueOf(n);
                while (digits.length() < ends[0].length()) {
                    digits = "0" + digits;
                }
                expand(prefix + digits + suffix, hosts);
            }
        }
    }

    /** @return {@code 2(x3),1} → 2, 2, 2, 1 */
    static List<Integer> tasksPerNode(String text) {
        List<Integer> counts = new ArrayList<>();
        for (String part : text.split(",")) {
            int paren = part.indexOf('(');
            int count = Integer.parseInt(paren < 0 ? part.trim() : part.substring(0, paren).trim());
            int times = paren < 0 ? 1 : Integer.parseInt(part.substring(paren + 2, part.indexOf(')')));
            for (int i = 0; i < times; i++) {
                counts.add(count);
            }
        }
        return counts;
    }
}
