// The built browser client is embedded into the release binary (src/client.rs); rebuild the
// server whenever it changes.
fn main() {
    println!("cargo:rerun-if-changed=../../web-client/dist");
}
