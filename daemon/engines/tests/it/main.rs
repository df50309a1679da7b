//! The Hub client against scripted engines (`daemon/tests/engines/scripted_hub.py`, run with
//! python3): what each misbehaviour becomes, and that the client starts the engine again after
//! one. The well-behaved engine, `checkerbot hub`, is the daemon's tests' (it is that crate's
//! binary): `daemon/tests/it/external_engine.rs`.

mod hub_client;
