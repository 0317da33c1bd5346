package dev.prism.cli;

import picocli.CommandLine;

/** Reads a file mode's permission bits in octal, as chmod takes them: {@code 0600}, {@code 644}. */
final class OctalModeConverter implements CommandLine.ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
        if (!value.matches("0?[0-7]{3}")) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a file mode; use octal permission"
                    + " bits 000 to 0777, e.g. 0600 or 0644");
        }
        return Integer.parseInt(value, 8);
    }
}
