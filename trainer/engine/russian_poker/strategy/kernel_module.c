/* kernel.c built as a Python extension module (setup.py): Python's import machinery and the
   package's install put it beside kernel.py, where kernel.py finds it; kernel.py then calls
   rp_exchange through ctypes (which lets go of the GIL for the call). The module itself holds
   nothing: RP_MODULE is its name (_kernel, or _kernel_v3 for the x86-64-v3 build). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernel.c"

#ifndef RP_MODULE
#define RP_MODULE _kernel
#endif
#define RP_NAME_(n) #n
#define RP_NAME(n) RP_NAME_(n)
#define RP_INIT_(n) PyInit_##n
#define RP_INIT(n) RP_INIT_(n)

static struct PyModuleDef rp_module = {
    PyModuleDef_HEAD_INIT, RP_NAME(RP_MODULE), "The advisor's draw kernel (kernel.c), called through ctypes.", 0,
    NULL,
};

PyMODINIT_FUNC RP_INIT(RP_MODULE)(void) { return PyModule_Create(&rp_module); }
