"""pyro-ppl: stochastic variational inference of a coin's bias (Beta-Bernoulli)."""

import json

import pyro
import pyro.distributions as dist
from pyro.infer import SVI, Trace_ELBO
from pyro.optim import Adam

import torch


def model(data):
    fairness = pyro.sample("fairness", dist.Beta(10.0, 10.0))
    with pyro.plate("data", len(data)):
        pyro.sample("obs", dist.Bernoulli(fairness), obs=data)


def guide(data):
    alpha = pyro.param("alpha", torch.tensor(15.0), constraint=dist.constraints.positive)
    beta = pyro.param("beta", torch.tensor(15.0), constraint=dist.constraints.positive)
    pyro.sample("fairness", dist.Beta(alpha, beta))


def main():
    pyro.set_rng_seed(0)
    pyro.clear_param_store()
    data = torch.cat([torch.ones(6), torch.zeros(4)])
    svi = SVI(model, guide, Adam({"lr": 0.05}), loss=Trace_ELBO())
    losses = [svi.step(data) for _ in range(30)]
    store = pyro.get_param_store()
    result = {
        "version": pyro.__version__,
        "losses": losses,
        "alpha": store["alpha"].item(),
        "beta": store["beta"].item(),
        "log_prob": dist.Beta(2.0, 3.0).log_prob(torch.tensor(0.4)).item(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
