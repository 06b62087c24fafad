"""Exports benchmark models with torch.onnx from PyTorch code, the way users get their
ONNX files: torchvision's ResNet-50, MobileNetV2, EfficientNet-B0 and SqueezeNet 1.0,
and a BERT encoder written like Hugging Face's `BertModel` at MiniLM-L6's shape (6
layers, hidden 384, 12 heads, FFN 1536, 30522-token vocabulary, inputs input_ids and
attention_mask of 2 x 32, the mask applied as `(1 - mask) * finfo.min`). Weights are
random (seeded): timing and correctness against onnxruntime do not need trained ones;
normalization statistics and zero-initialized parameters are random too, so that no
bias or normalization is an identity that would hide a wrong read.

Usage: export_torch_models.py [--output-dir DIR] [NAME ...]
NAME is torch_resnet50, torch_mobilenetv2, torch_efficientnet_b0, torch_squeezenet,
torch_bert (the default: these five), or one named on request: torch_resnet18,
torch_vgg11, torch_vit_b_16, torch_swin_t, torch_convnext_tiny, torch_resnext50,
torch_regnet_y_400mf, torch_mobilenet_v3_large, and the survey's (python/model_survey.py):
torch_densenet121, torch_googlenet, torch_inception_v3 (299 x 299), torch_shufflenet_v2,
torch_mnasnet, torch_mobilenet_v3_small, torch_efficientnet_v2_s, torch_alexnet,
torch_fcn_resnet50, torch_deeplabv3_mobilenet_v3, torch_lraspp_mobilenet_v3 (segmentation:
output "out", 21 classes at the input's size) and its sequence / image-to-image networks
(python/sequence_models.py: torch_lstm, torch_gru, torch_tcn, torch_separable_conv1d,
torch_transformer_encoder, torch_unet, torch_whisper_encoder; static shapes); written as
DIR/NAME.onnx (default .cache/models).

Needs torch and torchvision: Debian's python3-torch / python3-torchvision (CPU builds;
scripts/install-torch.sh installs them) with the system python3, or any CPU wheels.
"""
import argparse
import math
import pathlib
import sys

import torch
from torch import nn

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sequence_models import SEQUENCE_MODELS  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
OPSET = 14


class BertConfig:
    vocab_size = 30522
    hidden_size = 384
    num_hidden_layers = 6
    num_attention_heads = 12
    intermediate_size = 1536
    max_position_embeddings = 512
    type_vocab_size = 2
    layer_norm_eps = 1e-12


class BertEmbeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(0.1)
        self.register_buffer("position_ids", torch.arange(config.max_position_embeddings).expand((1, -1)))
        self.register_buffer("token_type_ids", torch.zeros(self.position_ids.size(), dtype=torch.long))

    def forward(self, input_ids):
        seq_length = input_ids.size(1)
        position_ids = self.position_ids[:, :seq_length]
        token_type_ids = self.token_type_ids[:, :seq_length].expand(input_ids.size(0), seq_length)
        embeddings = (self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)
                      + self.position_embeddings(position_ids))
        return self.dropout(self.LayerNorm(embeddings))


class BertSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_attention_heads = config.num_attention_heads
        self.attention_head_size = config.hidden_size // config.num_attention_heads
        self.all_head_size = self.num_attention_heads * self.attention_head_size
        self.query = nn.Linear(config.hidden_size, self.all_head_size)
        self.key = nn.Linear(config.hidden_size, self.all_head_size)
        self.value = nn.Linear(config.hidden_size, self.all_head_size)
        self.dropout = nn.Dropout(0.1)

    def transpose_for_scores(self, x):
        new_x_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        return x.view(new_x_shape).permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask):
        query_layer = self.transpose_for_scores(self.query(hidden_states))
        key_layer = self.transpose_for_scores(self.key(hidden_states))
        value_layer = self.transpose_for_scores(self.value(hidden_states))
        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        attention_scores = attention_scores / math.sqrt(self.attention_head_size)
        attention_scores = attention_scores + attention_mask
        attention_probs = self.dropout(nn.functional.softmax(attention_scores, dim=-1))
        context_layer = torch.matmul(attention_probs, value_layer)
        context_layer = context_layer.permute(0, 2, 1, 3).contiguous()
        new_context_layer_shape = context_layer.size()[:-2] + (self.all_head_size,)
        return context_layer.view(new_context_layer_shape)


class BertSelfOutput(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(0.1)

    def forward(self, hidden_states, input_tensor):
        return self.LayerNorm(self.dropout(self.dense(hidden_states)) + input_tensor)


class BertLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attention = BertSelfAttention(config)
        self.attention_output = BertSelfOutput(config)
        self.intermediate = nn.Linear(config.hidden_size, config.intermediate_size)
        self.output_dense = nn.Linear(config.intermediate_size, config.hidden_size)
        self.output_norm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(0.1)

    def forward(self, hidden_states, attention_mask):
        attention_output = self.attention_output(self.attention(hidden_states, attention_mask),
                                                 hidden_states)
        intermediate = nn.functional.gelu(self.intermediate(attention_output))
        return self.output_norm(self.dropout(self.output_dense(intermediate)) + attention_output)


class BertModel(nn.Module):
    """Hugging Face's BertModel (no pooler): last_hidden_state."""

    def __init__(self, config):
        super().__init__()
        self.embeddings = BertEmbeddings(config)
        self.layer = nn.ModuleList([BertLayer(config) for _ in range(config.num_hidden_layers)])

    def forward(self, input_ids, attention_mask):
        extended = attention_mask[:, None, None, :].to(torch.float32)
        extended = (1.0 - extended) * torch.finfo(torch.float32).min
        hidden_states = self.embeddings(input_ids)
        for layer in self.layer:
            hidden_states = layer(hidden_states, extended)
        return hidden_states


def randomize_identities(model):
    """Random BatchNorm statistics and affine parameters, and random values for every
    parameter initialized to zero (biases, LayerNorm shifts, ViT's class token and
    head): with torch's defaults, normalizations fold to identities, biases are zero
    and ViT's logits are its zero bias, so a comparison with onnxruntime would not see
    a bias read at the wrong channel, or anything at all (ViT)."""
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.modules.batchnorm._BatchNorm) and module.track_running_stats:
                module.running_mean.uniform_(-0.1, 0.1, generator=generator)
                module.running_var.uniform_(0.5, 1.5, generator=generator)
                if module.affine:
                    module.weight.uniform_(0.5, 1.5, generator=generator)
                    module.bias.uniform_(-0.1, 0.1, generator=generator)
        for parameter in model.parameters():
            if not parameter.any():
                parameter.normal_(0.0, 0.02, generator=generator)
    return model


def export_vision(name, builder, path, size=224, output="logits"):
    model = randomize_identities(builder(weights=None).eval())
    example = torch.randn(1, 3, size, size)
    torch.onnx.export(model, (example,), str(path), opset_version=OPSET,
                      input_names=["input"], output_names=[output],
                      dynamic_axes={"input": {0: "batch"}, output: {0: "batch"}},
                      do_constant_folding=True)


def survey_models(torchvision):
    """The survey's torchvision models: name -> (builder, input size, output name).
    Random weights, no pretrained backbone (nothing is downloaded)."""
    models, segmentation = torchvision.models, torchvision.models.segmentation

    def plain(build, **kwargs):
        return lambda weights: build(weights=weights, **kwargs)

    def dense_prediction(build):
        return lambda weights: build(weights=weights, weights_backbone=None, aux_loss=None)

    return {
        "torch_densenet121": (plain(models.densenet121), 224, "logits"),
        "torch_googlenet": (plain(models.googlenet, aux_logits=False, init_weights=True), 224,
                            "logits"),
        "torch_inception_v3": (plain(models.inception_v3, aux_logits=False, init_weights=True),
                               299, "logits"),
        "torch_shufflenet_v2": (plain(models.shufflenet_v2_x1_0), 224, "logits"),
        "torch_mnasnet": (plain(models.mnasnet1_0), 224, "logits"),
        "torch_mobilenet_v3_small": (plain(models.mobilenet_v3_small), 224, "logits"),
        "torch_mobilenet_v3_large": (plain(models.mobilenet_v3_large), 224, "logits"),
        "torch_regnet_y_400mf": (plain(models.regnet_y_400mf), 224, "logits"),
        "torch_maxvit_t": (plain(models.maxvit_t), 224, "logits"),
        "torch_efficientnet_v2_s": (plain(models.efficientnet_v2_s), 224, "logits"),
        "torch_alexnet": (plain(models.alexnet), 224, "logits"),
        "torch_fcn_resnet50": (dense_prediction(segmentation.fcn_resnet50), 224, "out"),
        "torch_deeplabv3_mobilenet_v3": (
            dense_prediction(segmentation.deeplabv3_mobilenet_v3_large), 224, "out"),
        "torch_lraspp_mobilenet_v3": (
            lambda weights: segmentation.lraspp_mobilenet_v3_large(weights=weights,
                                                                   weights_backbone=None),
            224, "out"),
    }


def export_sequence(builder, shape, path, output):
    model = randomize_identities(builder().eval())
    torch.onnx.export(model, (torch.randn(*shape),), str(path), opset_version=OPSET,
                      input_names=["input"], output_names=[output], do_constant_folding=True)


def export_bert(path):
    model = randomize_identities(BertModel(BertConfig()).eval())
    input_ids = torch.randint(0, BertConfig.vocab_size, (2, 32))
    attention_mask = torch.ones(2, 32, dtype=torch.long)
    torch.onnx.export(model, (input_ids, attention_mask), str(path), opset_version=OPSET,
                      input_names=["input_ids", "attention_mask"],
                      output_names=["last_hidden_state"],
                      dynamic_axes={"input_ids": {0: "batch", 1: "sequence"},
                                    "attention_mask": {0: "batch", 1: "sequence"},
                                    "last_hidden_state": {0: "batch", 1: "sequence"}},
                      do_constant_folding=True)


def main():
    import torchvision

    vision = {
        "torch_resnet50": torchvision.models.resnet50,
        "torch_mobilenetv2": torchvision.models.mobilenet_v2,
        "torch_efficientnet_b0": torchvision.models.efficientnet_b0,
        "torch_squeezenet": torchvision.models.squeezenet1_0,
        "torch_resnet18": torchvision.models.resnet18,
        "torch_vgg11": torchvision.models.vgg11,
        "torch_vit_b_16": torchvision.models.vit_b_16,
        "torch_swin_t": torchvision.models.swin_t,
        "torch_convnext_tiny": torchvision.models.convnext_tiny,
        "torch_resnext50": torchvision.models.resnext50_32x4d,
        "torch_regnet_y_400mf": torchvision.models.regnet_y_400mf,
        "torch_mobilenet_v3_large": torchvision.models.mobilenet_v3_large,
    }
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # Only when named (VGG-11: 531 MB; the others: architectures tried as a new user
    # would, beyond the default set).
    extra = ("torch_resnet18", "torch_vgg11", "torch_vit_b_16", "torch_swin_t",
             "torch_convnext_tiny", "torch_resnext50", "torch_regnet_y_400mf",
             "torch_mobilenet_v3_large")
    survey = survey_models(torchvision)
    parser.add_argument("names", nargs="*",
                        default=[*(n for n in vision if n not in extra), "torch_bert"])
    parser.add_argument("--output-dir", default=str(ROOT / ".cache" / "models"))
    arguments = parser.parse_args()
    directory = pathlib.Path(arguments.output_dir)
    directory.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    for name in arguments.names:
        path = directory / f"{name}.onnx"
        if name in vision:
            export_vision(name, vision[name], path)
        elif name in survey:
            builder, size, output = survey[name]
            export_vision(name, builder, path, size, output)
        elif name in SEQUENCE_MODELS:
            builder, shape, output = SEQUENCE_MODELS[name]
            export_sequence(builder, shape, path, output)
        elif name == "torch_bert":
            export_bert(path)
        else:
            known = [*vision, *survey, *SEQUENCE_MODELS, "torch_bert"]
            raise SystemExit(f"unknown model {name}: one of {', '.join(known)}")
        print(f"wrote {path} (torch {torch.__version__})")


if __name__ == "__main__":
    main()
