#ifndef RK_CORE_H
#define RK_CORE_H
#endif
