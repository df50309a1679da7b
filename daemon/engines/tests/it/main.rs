//! The Hub client against scripted engines (`daemon/tests/engines/scripted_hub.py`, run with
//! python3): what each misbehaviour becomes, and that the client starts the engine again after
//! one. The well-behaved Hub engine, `checkerbot hub`, is the daemon's tests' (it is that
//! crate's binary): `daemon/tests/it/external_engine.rs`. The DXP client against `checkerbot
//! dxp` (found beside this test's binary, skipped when it is not built) and
//! `daemon/tests/engines/dxp_proxy.py` in front of it.

mod dxp_client;
mod hub_client;
