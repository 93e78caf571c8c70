"""kornia: differentiable image filters, colour conversion and geometry on a small batch."""

import json

import kornia

import torch


def main():
    torch.manual_seed(0)
    images = torch.rand(2, 3, 16, 16)
    blurred = kornia.filters.gaussian_blur2d(images, (5, 5), (1.5, 1.5))
    grey = kornia.color.rgb_to_grayscale(images)
    edges = kornia.filters.sobel(grey)
    angle = torch.tensor([30.0, -45.0])
    rotated = kornia.geometry.transform.rotate(images, angle)
    hsv = kornia.color.rgb_to_hsv(images)
    flipped = kornia.geometry.transform.hflip(images)
    images.requires_grad_(True)
    loss = kornia.losses.ssim_loss(images, blurred.detach(), window_size=5)
    loss.backward()
    result = {
        "version": kornia.__version__,
        "blurred": blurred.sum().item(),
        "grey": grey.mean().item(),
        "edges": edges.sum().item(),
        "rotated": rotated.sum().item(),
        "hsv": [hsv[:, i].mean().item() for i in range(3)],
        "flipped": (flipped[..., 0] == images.detach()[..., -1]).all().item(),
        "ssim_loss": loss.item(),
        "ssim_grad": images.grad.abs().sum().item(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
