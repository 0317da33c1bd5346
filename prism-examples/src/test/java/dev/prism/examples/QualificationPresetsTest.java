package dev.prism.examples;

import dev.prism.report.Qualification;
import dev.prism.torch.TorchModel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A requirements file's model presets hold the parameters prism-torch's presets build, one for one. */
class QualificationPresetsTest {
    @Test
    void eachPreset_isTheModelTorchBuilds() {
        for (TorchModel model : new TorchModel[]{TorchModel.LLAMA3_8B, TorchModel.LLAMA3_70B, TorchModel.LLAMA3_405B}) {
            Qualification q = Qualification.fromJson("{\"job\": {\"ranks\": 1}, \"checkpoint\": {\"model\": \"" + model.label()
                    + "\", \"bytesPerParameter\": 1, \"stallSeconds\": 1, \"method\": \"file\"}}");
            assertThat(q.requirements().get(0).needed()).as(model.label()).isEqualTo((double) model.parameterCount());
        }
    }
}
