//! The panic handler of the shipped .wasm (feature `panic-trap`, where the
//! crate is `no_std`): a trap, as std's handler ends under panic = "abort",
//! but without std's payload, hook and message-formatting code. A trap
//! reaches JavaScript as a `WebAssembly.RuntimeError` thrown by the call. No
//! input makes the crate panic (lib.rs); the JS layer checks every argument
//! before it gets here.

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}
