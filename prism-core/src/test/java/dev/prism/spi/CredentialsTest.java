package dev.prism.spi;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A password in a URL is removed by parsing the URL, not by a pattern: the pattern before stopped at the first
 * {@code /} or {@code @} of the password and printed the rest ({@code http://***@ss/w:rd@gw:9091/x}, issue 55).
 */
class CredentialsTest {
    @Test
    void aPasswordHoldingAtSlashAndColon_isRemovedWhole_andTheHostStays() {
        assertThat(Credentials.redactUrl("http://ops:p@ss/w:rd@gw:9091/x")).isEqualTo("http://***@gw:9091/x");
        assertThat(Credentials.redact("prism run x --push http://ops:p@ss/w:rd@gw:9091/x --reps 2"))
                .isEqualTo("prism run x --push http://***@gw:9091/x --reps 2");
    }

    @Test
    void textWithoutUserInformation_isUnchanged_andOnlyTheUrlsWordIsTouched() {
        assertThat(Credentials.redact("prism run x --label owner=a@b --push http://gw:9091"))
                .isEqualTo("prism run x --label owner=a@b --push http://gw:9091");
        assertThat(Credentials.redact("was 'https://u:pw@gw:9091', and mail ops@example.org"))
                .isEqualTo("was 'https://***@gw:9091', and mail ops@example.org");
        assertThat(Credentials.redactUrl("--push=http://u:p w@gw")).isEqualTo("--push=http://***@gw");
        assertThat(Credentials.redact(null)).isNull();
        assertThat(Credentials.redactUrl(null)).isNull();
    }

    /** One URL, any user and any password — white space, quotes, {@code @ / : ? #} and all: only the host and path stay. */
    @Property(tries = 2000)
    void anyPassword_neverAppears_andTheHostAndPortStay(@ForAll("secrets") String user, @ForAll("secrets") String password) {
        String url = "http://" + user + ":" + password + "@gw.example:9091/metrics";
        assertThat(Credentials.redactUrl(url)).isEqualTo("http://***@gw.example:9091/metrics");
    }

    /** In a command line a URL ends at white space: a password without any is removed whole, the other words stay. */
    @Property(tries = 2000)
    void inACommandLine_anyPasswordWithoutWhiteSpace_neverAppears(@ForAll("wordSecrets") String password) {
        String line = "prism run x --push https://ops:" + password + "@10.1.2.3:9091/x --reps 2";
        assertThat(Credentials.redact(line)).isEqualTo("prism run x --push https://***@10.1.2.3:9091/x --reps 2");
    }

    @Provide
    Arbitrary<String> secrets() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(24),
                Arbitraries.strings().withChars("@/:?#%' \"\\\t\n=+.-aZ9").ofMaxLength(24));
    }

    @Provide
    Arbitrary<String> wordSecrets() {
        return secrets().map(s -> s.replaceAll("\\s", "")).filter(s -> !s.isEmpty());
    }
}
