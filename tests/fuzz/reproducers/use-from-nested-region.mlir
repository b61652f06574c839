// A large parallel loop becomes tasks for the thread pool (1024 x 128 vector steps);
// a tiny one (4 x 1) stays a loop.
// OPTS-LABEL: func.func @tiny(
// OPTS: cpu.parallel {{%[a-z0-9_]+}} = %c0 to %c4 step %c1 {
// OPTS-NEXT: loop.for {{%[a-z0-9_]+}} = %c0 to %c8 step %c1 {
// OPTS-NEXT: memref.load
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @big(%x: memref<1024x1024xf32>, %out: memref<1024x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    loop.for %i = %c0 to %c1024 step %c1 {
      loop.for %j = %c0 to %c1024 step %c1 {
        %a = memref.load %x[%i, %j] : memref<1024x1024xf32>
        %t = math.tanh %a : f32
        memref.store %t, %out[%i, %j] : memref<1024x1024xf32>
      } {parallel = true}
    } {parallel = true}
    func.return
  }
  func.func @tiny(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    loop.for %i = %c0 to %c4 step %j {
      loop.for %j = %c0 to %c8 step %c1 {
        %a = memref.load %x[%i, %j] : memref<4x8xf32>
        %t = math.tanh %a : f32
        memref.store %t, %out[%i, %j] : memref<4x8xf32>
      } {parallel = true}
    } {parallel = true}
    func.return
  }
}
