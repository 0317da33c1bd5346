package dev.prism.report;

import dev.prism.spi.StudentT;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.apache.commons.math3.distribution.TDistribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Core computes its confidence intervals without a statistics library (a table and an expansion); here, where
 * commons-math3 is at hand, the two are held to each other over the degrees of freedom repetitions give.
 */
class StudentTProperties {
    @Property(tries = 2000)
    void coresQuantileIsCommonsMaths(@ForAll @LongRange(min = 1, max = 5000) long df) {
        double exact = new TDistribution(null, df).inverseCumulativeProbability(0.975);
        assertThat(StudentT.quantile975(df)).isCloseTo(exact, within(exact * 2e-8));
    }
}
