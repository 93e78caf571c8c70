"""lightning: Trainer.fit of a small regression model for two epochs, then validate."""

import json
import logging
import warnings

import lightning as L  # noqa: N812 (lightning's own spelling)

import torch
from torch.utils.data import DataLoader, TensorDataset


class Regressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(
            torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1)
        )
        self.losses = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = torch.nn.functional.mse_loss(self.net(x), y)
        self.losses.append(loss.item())
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", torch.nn.functional.mse_loss(self.net(x), y))

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def main():
    warnings.simplefilter("ignore")
    logging.getLogger("lightning").setLevel(logging.ERROR)
    logging.getLogger("lightning.pytorch").setLevel(logging.ERROR)
    L.seed_everything(0, verbose=False)
    x = torch.randn(64, 4)
    y = x @ torch.tensor([[1.0], [-2.0], [0.5], [3.0]]) + 0.1
    data = TensorDataset(x, y)
    model = Regressor()
    trainer = L.Trainer(
        max_epochs=2,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, DataLoader(data, batch_size=16))
    metrics = trainer.validate(model, DataLoader(data, batch_size=32), verbose=False)
    result = {
        "version": L.__version__,
        "steps": trainer.global_step,
        "losses": model.losses,
        "val_loss": metrics[0]["val_loss"],
        "weight_sum": sum(p.sum().item() for p in model.parameters()),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
