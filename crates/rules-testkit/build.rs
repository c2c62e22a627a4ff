// Compiles the engine's source (../rules/src) with its testing accessors: see Cargo.toml.
fn main() {
    println!("cargo::rustc-cfg=evr_testkit");
}
